// ESM entry point: the same module as index.cjs (one native addon, loaded
// once, whichever way the package is imported).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const toolcall = require('./index.cjs');

export const {
  JSONRepairError,
  OptionError,
  StreamParser,
  Tools,
  ToolcallError,
  ToolsError,
  checkTranscript,
  events,
  formats,
  models,
  parse,
  parseAsync,
  renderCalls,
  renderResult,
  renderTools,
  repair,
  repairJson,
  repairJsonAsync,
  split,
  stream,
  toOpenAI,
  validate,
  version,
} = toolcall;
export default toolcall;
