
/**
 * `repairJson`'s common case (registered by hand in `lib.rs`'s
 * `hand_exports`, so napi does not generate this declaration): `null` when
 * the text is already valid JSON (the caller keeps its own string), else the
 * repaired text; throws with the error's fields as JSON text when nothing can
 * be made of it. `textAsString` reads a sentence of prose as one string. A
 * string shorter than 256 characters is written by V8 into a stack buffer
 * (one call, no allocation): for short strings.
 */
export declare function repairText(input: string, textAsString?: boolean): string | null
/** `repairText` with the string read as UTF-8: for long strings. */
export declare function repairTextUtf8(input: string, textAsString?: boolean): string | null
/**
 * `parse` and `split` on a short input (registered by hand in `lib.rs`'s
 * `hand_exports`): one JSON text, the Document (`shape` 0) or the `split`
 * record (`shape` 1). The string is read as UTF-16; `options` is the JSON
 * text of the engine's options (keys spelt as the engine spells them).
 */
export declare function parseText(input: string | Uint8Array, shape: number, options?: string | null, tools?: Tools | null): string
