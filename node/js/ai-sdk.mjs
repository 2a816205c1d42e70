// ESM entry point of toolcall/ai-sdk (the same module as ai-sdk.cjs).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const m = require('./ai-sdk.cjs');

export const { toolcallMiddleware, repairToolCall } = m;
