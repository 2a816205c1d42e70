//! The envelope of the loop's event records (docs/agent.md#events): every
//! record has `type`, `request_id`, `seq`, `iteration` and `ts` (UTC,
//! RFC 3339 with milliseconds). For golden files, timestamps and
//! durations can be left out.

use serde_json::{Map, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// Keys left out when timestamps are off: they differ from run to run.
const TIMING_KEYS: [&str; 3] = ["ts", "duration_ms", "decision_ms"];

/// Numbers and stamps the records of one run.
#[derive(Clone, Debug)]
pub struct Envelope {
    request_id: String,
    seq: u64,
    timestamps: bool,
}

impl Envelope {
    /// Records for `request_id`; `timestamps` false drops `ts` and every
    /// duration (for golden files).
    pub fn new(request_id: impl Into<String>, timestamps: bool) -> Envelope {
        Envelope {
            request_id: request_id.into(),
            seq: 0,
            timestamps,
        }
    }

    /// The request id.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// A record of `kind` with `fields` (an object; anything else is put
    /// under `value`), numbered and stamped.
    pub fn record(&mut self, kind: &str, iteration: u32, fields: Value) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::String(kind.to_string()));
        m.insert("request_id".into(), Value::String(self.request_id.clone()));
        m.insert("seq".into(), Value::from(self.seq));
        m.insert("iteration".into(), Value::from(iteration));
        if self.timestamps {
            m.insert("ts".into(), Value::String(utc_now()));
        }
        self.seq += 1;
        match fields {
            Value::Object(f) => {
                for (k, v) in f {
                    m.insert(k, v);
                }
            }
            Value::Null => {}
            other => {
                m.insert("value".into(), other);
            }
        }
        let mut v = Value::Object(m);
        if !self.timestamps {
            drop_timing(&mut v);
        }
        v
    }
}

/// Removes `ts`, `duration_ms` and `decision_ms` at any depth.
pub fn drop_timing(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for k in TIMING_KEYS {
                m.remove(k);
            }
            m.values_mut().for_each(drop_timing);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_timing),
        _ => {}
    }
}

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn utc_now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    utc(d.as_secs(), d.subsec_millis())
}

/// `secs` since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn utc(secs: u64, millis: u32) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(utc(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(utc(1_767_225_599, 999), "2025-12-31T23:59:59.999Z");
    }

    #[test]
    fn envelope_numbers_and_drops_timing() {
        let mut e = Envelope::new("r1", false);
        let a = e.record(
            "x",
            1,
            serde_json::json!({"duration_ms": 3, "k": {"ts": 1}}),
        );
        let b = e.record("y", 2, Value::Null);
        assert_eq!(
            a.to_string(),
            r#"{"type":"x","request_id":"r1","seq":0,"iteration":1,"k":{}}"#
        );
        assert_eq!(b["seq"], 1);
    }
}
