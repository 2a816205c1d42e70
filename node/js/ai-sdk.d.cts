import type { LanguageModelV3Middleware, LanguageModelV3ToolCall } from '@ai-sdk/provider';
import type { Options } from './index.cjs';

export interface MiddlewareOptions extends Omit<Options, 'tools' | 'input'> {
  /** Hand the call's tool definitions to the engine (default true). */
  tools?: boolean;
  /**
   * A format id or model name: write the tools into the system prompt as
   * that family's chat template does, and take them out of the provider
   * call (for a model served without tool support).
   */
  prompt?: string;
}

/** The middleware: `wrapLanguageModel({ model, middleware: toolcallMiddleware() })`. */
export function toolcallMiddleware(options?: MiddlewareOptions): LanguageModelV3Middleware;

/** The `experimental_repairToolCall` hook of `generateText` / `streamText`. */
export function repairToolCall(options: {
  toolCall: LanguageModelV3ToolCall;
  tools: Record<string, unknown>;
  inputSchema: (options: { toolName: string }) => PromiseLike<unknown>;
  error: unknown;
}): Promise<LanguageModelV3ToolCall | null>;
