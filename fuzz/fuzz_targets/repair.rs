//! `repair`: arbitrary bytes. Checks (invariant 4 and the repair contract):
//! valid JSON (by serde_json, at any depth) comes back byte-identical with
//! `changed == false` and no repairs; any `Ok` output parses with serde_json;
//! `changed` is false exactly when the output equals the input;
//! `repair_bytes` and `parse_value` never panic and `Ok` means valid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use toolcall::RepairOptions;

fn valid(s: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(s);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de)
        .map(|_: IgnoredAny| ())
        .is_ok()
        && de.end().is_ok()
}

fuzz_target!(|data: &[u8]| {
    // no time budget: results must not depend on how fast the fuzzer runs
    let opts = RepairOptions {
        timeout_ms: 0,
        ..RepairOptions::default()
    };
    if let Ok(s) = std::str::from_utf8(data) {
        let was_valid = valid(s);
        match toolcall::repair(s, &opts) {
            Ok(r) => {
                assert!(valid(&r.output), "Ok output does not parse: {:?}", r.output);
                assert_eq!(r.changed, r.output != s, "changed flag wrong");
                if was_valid {
                    assert_eq!(r.output, s, "valid JSON was changed");
                    assert!(
                        r.repairs.is_empty(),
                        "valid JSON got repairs {:?}",
                        r.repairs
                    );
                }
                if r.changed {
                    // a repaired document is valid JSON: repairing it again changes nothing
                    let again =
                        toolcall::repair(&r.output, &opts).expect("repaired output repairs");
                    assert!(!again.changed, "repair is not idempotent");
                }
            }
            Err(e) => assert!(!was_valid, "valid JSON rejected: {e}"),
        }
        if let Ok((v, _)) = toolcall::parse_value(s, &opts) {
            let _ = serde_json::to_string(&v).expect("value serialises");
        }
    }
    if let Ok(r) = toolcall::repair_bytes(data, &opts) {
        assert!(valid(&r.output), "repair_bytes Ok output does not parse");
    }
});
