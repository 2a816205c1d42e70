export * from './ai-sdk.cjs';
