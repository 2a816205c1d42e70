//! Measuring probes for the Node-API boundary (cargo feature `probes`, off
//! in the package): identity functions that cross the boundary the way
//! `repairText` does with no repair in between, so a benchmark can split
//! `repairJson`'s per-call time into the call, reading the string, making
//! the result string and the core's work. `node bench/boundary.mjs` runs
//! them when the addon was built with `TOOLCALL_NODE_FEATURES=probes`.

use napi::bindgen_prelude::{Env, Latin1String, Object, Utf16String};
use napi::Result;

/// Registers the probes on the module's exports, each as `probe<Name>`.
pub fn register(exports: &mut Object<'_>, env: &Env) -> Result<()> {
    // the call alone: one string argument, not read
    let f = env.create_function_from_closure::<String, _, _>("probeNop", |_ctx| Ok(()))?;
    exports.set("probeNop", f)?;
    // the string read as UTF-16, nothing returned
    let f = env.create_function_from_closure::<String, _, _>("probeReadUtf16", |ctx| {
        let u: Utf16String = ctx.get(0)?;
        Ok(u.len() as u32)
    })?;
    exports.set("probeReadUtf16", f)?;
    // written by V8 as UTF-8 into a stack buffer (repairText's read)
    let f = env.create_function_from_closure::<String, _, _>("probeReadStack", |ctx| {
        let mut buf = [0u8; super::SHORT_BYTES];
        Ok(super::short_text(&ctx, &mut buf).map_or(0, |t| t.len() as u32))
    })?;
    exports.set("probeReadStack", f)?;
    // the same, returned as Latin-1
    let f = env.create_function_from_closure::<String, _, _>("probeIdStack", |ctx| {
        let mut buf = [0u8; super::SHORT_BYTES];
        let text = super::short_text(&ctx, &mut buf).unwrap_or_default();
        Ok(Latin1String::from(text.to_owned()))
    })?;
    exports.set("probeIdStack", f)?;
    // read as UTF-16, narrowed to UTF-8, returned as UTF-8 (the previous repairText)
    let f = env.create_function_from_closure::<String, _, _>("probeIdUtf8", |ctx| {
        let u: Utf16String = ctx.get(0)?;
        Ok(super::utf8_of(&u))
    })?;
    exports.set("probeIdUtf8", f)?;
    // read as UTF-16, narrowed, returned as Latin-1 (ASCII inputs only)
    let f = env.create_function_from_closure::<String, _, _>("probeIdLatin1", |ctx| {
        let u: Utf16String = ctx.get(0)?;
        Ok(Latin1String::from(super::utf8_of(&u)))
    })?;
    exports.set("probeIdLatin1", f)?;
    // read as UTF-16 and handed back as UTF-16
    let f = env.create_function_from_closure::<String, _, _>("probeIdUtf16", |ctx| {
        let u: Utf16String = ctx.get(0)?;
        Ok(u)
    })?;
    exports.set("probeIdUtf16", f)?;
    // read as UTF-8 by V8, returned as UTF-8
    let f = env.create_function_from_closure::<String, _, _>("probeIdStr", |ctx| {
        let s: String = ctx.get(0)?;
        Ok(s)
    })?;
    exports.set("probeIdStr", f)?;
    // read, repaired by the core (the text entry, fast path first), only
    // the output's length returned
    let f = env.create_function_from_closure::<String, _, _>("probeRepairTextLen", |ctx| {
        let u: Utf16String = ctx.get(0)?;
        let text = super::utf8_of(&u);
        let n = match toolcall_core::repair_document_text(
            &text,
            &super::UNBOUNDED,
            toolcall_core::Prose::Refuse,
        ) {
            Ok(Some(out)) => out.len(),
            _ => 0,
        };
        Ok(n as u32)
    })?;
    exports.set("probeRepairTextLen", f)?;
    // read, repaired by the core (the full repair), only the output's
    // length returned
    let f = env.create_function_from_closure::<String, _, _>("probeRepairLen", |ctx| {
        let u: Utf16String = ctx.get(0)?;
        let text = super::utf8_of(&u);
        let n = match toolcall_core::repair_document_str(
            &text,
            &super::UNBOUNDED,
            toolcall_core::Prose::Refuse,
        ) {
            Ok(Some(r)) => r.output.len(),
            _ => 0,
        };
        Ok(n as u32)
    })?;
    exports.set("probeRepairLen", f)?;
    Ok(())
}
