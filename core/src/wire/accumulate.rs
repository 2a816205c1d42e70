//! The streaming accumulator for tool calls that arrive in fragments.
//!
//! OpenAI-style streams (`delta.tool_calls`, the Responses API's
//! `function_call_arguments.delta`) send a call in pieces: its id and name
//! once, its arguments as string fragments that are not JSON on their own.
//! Fragments are joined per call, keyed by the provider's `index` (per
//! choice), or by the item id or call id when the index is missing.
//!
//! * Calls are numbered in the order they open; they are completed in that
//!   order when the stream says so (`finish_reason`, the end of a Responses
//!   item, the end of the stream).
//! * Interleaved and out-of-order indices are fine; a fragment that cannot
//!   belong to the call its keys select (another id or another name) is a
//!   TLP-008 error and is dropped.
//! * Memory is bounded: all open calls together may hold at most
//!   `max_buffer` bytes. The call whose fragment crosses the limit becomes a
//!   TLP-007 error and is dropped whole; the stream goes on. A dropped call
//!   leaves only its keys behind, so that its later fragments are dropped
//!   too, and those keys are bounded ([`DROPPED_KEYS`] bytes, the oldest
//!   forgotten first): a stream of ever-new indices holds no more than
//!   `max_buffer` plus that.
//!
//! Work is linear in the fragments: a fragment is appended once and the
//! arguments are decoded once, at completion.

use crate::engine::derive_id;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

/// Bytes of keys of dropped calls remembered (each key charged its length
/// plus `OVERHEAD`): their later fragments are dropped without a report.
pub const DROPPED_KEYS: usize = 64 * 1024;

/// A key a fragment selects its call by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Index(u64, u64),
    Item(String),
    Id(String),
}

impl Key {
    fn cost(&self) -> usize {
        OVERHEAD
            + match self {
                Key::Index(..) => 0,
                Key::Item(s) | Key::Id(s) => s.len(),
            }
    }

    /// The key `locate` would look a fragment up by first.
    fn of(f: &Fragment) -> Option<Key> {
        match (f.index, &f.item_id, &f.id) {
            (Some(i), _, _) => Some(Key::Index(f.choice, i)),
            (None, Some(iid), _) => Some(Key::Item(iid.clone())),
            (None, None, Some(id)) => Some(Key::Id(id.clone())),
            _ => None,
        }
    }
}

/// One piece of a call, as a wire decoder read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fragment {
    /// The choice it belongs to (`choices[].index`; 0 for the Responses API).
    pub choice: u64,
    /// The provider's call index (`tool_calls[].index`, `output_index`).
    pub index: Option<u64>,
    /// The call id (`call_…`), usually only on the first fragment.
    pub id: Option<String>,
    /// The Responses API item id (`fc_…`), a second key for lookups.
    pub item_id: Option<String>,
    /// The function name, usually only on the first fragment.
    pub name: Option<String>,
    /// An arguments fragment.
    pub arguments: Option<String>,
    /// `arguments` is the whole arguments string (it replaces what was
    /// accumulated, as `function_call_arguments.done` does).
    pub replace: bool,
    /// The call is complete after this fragment.
    pub complete: bool,
}

/// What the accumulator reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccEvent {
    /// A call's name became known.
    Start {
        /// The call's index in the document.
        index: usize,
        /// Its id (the provider's, or derived).
        id: String,
        /// Its name.
        name: String,
    },
    /// A call is complete; its arguments are the joined fragments.
    Call(Assembled),
    /// Fragments that could not be used.
    Error {
        /// `TLP-001`, `TLP-007` or `TLP-008`.
        code: &'static str,
        /// What went wrong.
        message: String,
        /// What probably caused it.
        hint: Option<String>,
    },
}

/// A complete call, arguments not yet decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    /// The call's index in the document.
    pub index: usize,
    /// The provider's id, or one derived from index, offset and name.
    pub id: String,
    /// The function name.
    pub name: String,
    /// The joined argument fragments.
    pub arguments: String,
    /// The stream ended (or hit its length limit) before the call was
    /// closed: arguments that are not valid JSON were cut off.
    pub cut_off: bool,
    /// Where the call opened, in the decoded text.
    pub at: u64,
}

/// Bytes charged per open call besides its strings, so that a flood of
/// empty calls is bounded too.
const OVERHEAD: usize = 64;

#[derive(Debug)]
struct Open {
    choice: u64,
    index: Option<u64>,
    id: Option<String>,
    item_id: Option<String>,
    name: Option<String>,
    args: String,
    doc_index: usize,
    at: u64,
    started: bool,
    overflow: bool,
}

impl Open {
    fn cost(&self) -> usize {
        OVERHEAD
            + self.args.len()
            + self.id.as_ref().map_or(0, String::len)
            + self.item_id.as_ref().map_or(0, String::len)
            + self.name.as_ref().map_or(0, String::len)
    }

    fn id_or_derived(&self) -> String {
        match &self.id {
            Some(id) => id.clone(),
            None => derive_id(self.doc_index, self.at, self.name.as_deref().unwrap_or("")),
        }
    }
}

/// Joins call fragments; see the module documentation.
///
/// Open calls are kept by opening number, with maps from each key (choice
/// and index, item id, call id, choice) to the open calls that carry it, so
/// that finding a fragment's call and completing a call cost no more than a
/// few map operations however many calls are open.
#[derive(Debug)]
pub struct Accumulator {
    /// Open calls by opening number: iteration is the opening order.
    open: BTreeMap<u64, Open>,
    next_seq: u64,
    by_index: HashMap<(u64, u64), BTreeSet<u64>>,
    by_item: HashMap<String, BTreeSet<u64>>,
    by_id: HashMap<String, BTreeSet<u64>>,
    by_choice: HashMap<u64, BTreeSet<u64>>,
    held: usize,
    max: usize,
    /// Fragments placed and calls completed, for the linear-time tests.
    work: u64,
    /// Keys of calls dropped at the limit, oldest first, and their bytes.
    dropped: VecDeque<Key>,
    dropped_set: HashSet<Key>,
    dropped_bytes: usize,
}

enum Slot {
    Existing(u64),
    New,
    /// The existing call is complete: close it, then open a new one.
    Replace(u64),
}

fn link<K: std::hash::Hash + Eq>(map: &mut HashMap<K, BTreeSet<u64>>, key: K, seq: u64) {
    map.entry(key).or_default().insert(seq);
}

fn unlink<K, Q>(map: &mut HashMap<K, BTreeSet<u64>>, key: &Q, seq: u64)
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: std::hash::Hash + Eq + ?Sized,
{
    if let Some(set) = map.get_mut(key) {
        set.remove(&seq);
        if set.is_empty() {
            map.remove(key);
        }
    }
}

fn oldest<K, Q>(map: &HashMap<K, BTreeSet<u64>>, key: &Q) -> Option<u64>
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: std::hash::Hash + Eq + ?Sized,
{
    map.get(key).and_then(|set| set.first().copied())
}

impl Accumulator {
    /// An empty accumulator holding at most `max_buffer` bytes.
    pub fn new(max_buffer: usize) -> Self {
        Accumulator {
            open: BTreeMap::new(),
            next_seq: 0,
            by_index: HashMap::new(),
            by_item: HashMap::new(),
            by_id: HashMap::new(),
            by_choice: HashMap::new(),
            held: 0,
            max: max_buffer,
            work: 0,
            dropped: VecDeque::new(),
            dropped_set: HashSet::new(),
            dropped_bytes: 0,
        }
    }

    /// Keys of dropped calls remembered, and their bytes (at most
    /// [`DROPPED_KEYS`]).
    pub fn dropped_keys(&self) -> (usize, usize) {
        (self.dropped.len(), self.dropped_bytes)
    }

    /// Remembers a dropped call's key, forgetting the oldest past the bound.
    fn forget_later(&mut self, key: Key) {
        if self.dropped_set.contains(&key) {
            return;
        }
        self.dropped_bytes += key.cost();
        self.dropped_set.insert(key.clone());
        self.dropped.push_back(key);
        while self.dropped_bytes > DROPPED_KEYS {
            let Some(old) = self.dropped.pop_front() else {
                break;
            };
            self.dropped_bytes -= old.cost();
            self.dropped_set.remove(&old);
        }
    }

    /// Bytes held by the open calls (ids, names, arguments, bookkeeping).
    pub fn held(&self) -> usize {
        self.held
    }

    /// Number of open calls.
    pub fn open_calls(&self) -> usize {
        self.open.len()
    }

    /// Work done so far: fragments placed and calls completed, each a few
    /// map operations on the keys (no scan of the open calls), so it is
    /// linear in the fragments however many calls are open. The linear-time
    /// tests compare it, and the time, across input sizes.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Adds a fragment. A call that opens takes `*next_index` (which is then
    /// advanced) and remembers `at` (the current offset in the decoded text,
    /// used for derived ids).
    pub fn push(&mut self, f: Fragment, next_index: &mut usize, at: u64, out: &mut Vec<AccEvent>) {
        self.work += 1;
        let key = Key::of(&f);
        if let Some(k) = key.as_ref().filter(|k| self.dropped_set.contains(*k)) {
            let open = match k {
                Key::Index(c, i) => self.by_index.contains_key(&(*c, *i)),
                Key::Item(s) => self.by_item.contains_key(s),
                Key::Id(s) => self.by_id.contains_key(s),
            };
            if !open {
                if f.name.is_none() {
                    // the rest of a call dropped at the limit
                    return;
                }
                // a new call reuses the key
                self.dropped_set.remove(k);
            }
        }
        let slot = match self.locate(&f) {
            Ok(s) => s,
            Err(message) => {
                out.push(AccEvent::Error {
                    code: "TLP-008",
                    message,
                    hint: Some(
                        "the server sent a fragment that contradicts the call its index selects"
                            .into(),
                    ),
                });
                return;
            }
        };
        let i = match slot {
            Slot::Existing(i) => i,
            Slot::Replace(i) => {
                self.complete(i, false, out);
                self.open_new(&f, next_index, at)
            }
            Slot::New => self.open_new(&f, next_index, at),
        };
        self.apply(i, f.id, f.item_id, f.name, f.arguments, f.replace, out);
        if f.complete {
            self.complete(i, false, out);
        }
    }

    /// Completes the open calls of `choice` (all calls for `None`), in the
    /// order they opened. `cut_off`: the stream ended or hit its length
    /// limit, so unfinished arguments were cut off.
    pub fn finish(&mut self, choice: Option<u64>, cut_off: bool, out: &mut Vec<AccEvent>) {
        let seqs: Vec<u64> = match choice {
            None => self.open.keys().copied().collect(),
            Some(c) => self
                .by_choice
                .get(&c)
                .map(|set| set.iter().copied().collect())
                .unwrap_or_default(),
        };
        for seq in seqs {
            self.work += 1;
            self.complete(seq, cut_off, out);
        }
    }

    fn open_new(&mut self, f: &Fragment, next_index: &mut usize, at: u64) -> u64 {
        let o = Open {
            choice: f.choice,
            index: f.index,
            id: None,
            item_id: None,
            name: None,
            args: String::new(),
            doc_index: *next_index,
            at,
            started: false,
            overflow: false,
        };
        *next_index += 1;
        self.held += o.cost();
        let seq = self.next_seq;
        self.next_seq += 1;
        if let Some(idx) = o.index {
            link(&mut self.by_index, (o.choice, idx), seq);
        }
        link(&mut self.by_choice, o.choice, seq);
        self.open.insert(seq, o);
        seq
    }

    fn locate(&self, f: &Fragment) -> Result<Slot, String> {
        let hit = f
            .index
            .and_then(|idx| oldest(&self.by_index, &(f.choice, idx)));
        let hit = hit.or_else(|| {
            f.item_id
                .as_deref()
                .and_then(|iid| oldest(&self.by_item, iid))
        });
        let hit = hit.or_else(|| {
            if f.index.is_none() {
                f.id.as_deref().and_then(|id| oldest(&self.by_id, id))
            } else {
                None
            }
        });
        if let Some(i) = hit {
            let Some(o) = self.open.get(&i) else {
                return Err(
                    "tool call fragment for a call that is no longer open; fragment dropped".into(),
                );
            };
            let id_clash = matches!((&f.id, &o.id), (Some(a), Some(b)) if a != b);
            let name_clash = matches!((&f.name, &o.name), (Some(a), Some(b)) if a != b);
            if id_clash || name_clash {
                if f.name.is_some() && !o.overflow && crate::repair::is_valid_json(&o.args) {
                    // A server that reuses one index for consecutive whole
                    // calls: the previous call is complete.
                    return Ok(Slot::Replace(i));
                }
                let what = if id_clash {
                    format!(
                        "id {:?} but the call has id {:?}",
                        f.id.as_deref().unwrap_or(""),
                        o.id.as_deref().unwrap_or("")
                    )
                } else {
                    format!(
                        "name {:?} but the call is named {:?}",
                        f.name.as_deref().unwrap_or(""),
                        o.name.as_deref().unwrap_or("")
                    )
                };
                return Err(format!(
                    "tool call fragment for index {} carries {what}; fragment dropped",
                    o.index.map_or_else(|| "?".to_string(), |n| n.to_string())
                ));
            }
            return Ok(Slot::Existing(i));
        }
        if f.index.is_some() || f.name.is_some() || f.id.is_some() || f.item_id.is_some() {
            return Ok(Slot::New);
        }
        // No key at all: only unambiguous when one call of the choice is open.
        let mut same = self
            .by_choice
            .get(&f.choice)
            .into_iter()
            .flat_map(|set| set.iter().copied());
        match (same.next(), same.next()) {
            (Some(i), None) => Ok(Slot::Existing(i)),
            (None, _) => Err(
                "tool call fragment without index, id or name, and no call is open; fragment dropped"
                    .into(),
            ),
            (Some(_), Some(_)) => Err(
                "tool call fragment without index, id or name while several calls are open; fragment dropped"
                    .into(),
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn apply(
        &mut self,
        seq: u64,
        id: Option<String>,
        item_id: Option<String>,
        name: Option<String>,
        args: Option<String>,
        replace: bool,
        out: &mut Vec<AccEvent>,
    ) {
        let Some(o) = self.open.get_mut(&seq) else {
            return;
        };
        let before = o.cost();
        if o.id.is_none() {
            o.id = id.filter(|s| !s.is_empty());
            if let Some(id) = &o.id {
                link(&mut self.by_id, id.clone(), seq);
            }
        }
        if o.item_id.is_none() {
            o.item_id = item_id.filter(|s| !s.is_empty());
            if let Some(iid) = &o.item_id {
                link(&mut self.by_item, iid.clone(), seq);
            }
        }
        if o.name.is_none() {
            o.name = name.filter(|s| !s.trim().is_empty());
        }
        if let Some(a) = args {
            if !o.overflow {
                if replace {
                    o.args = a;
                } else {
                    o.args.push_str(&a);
                }
            }
        }
        let after = o.cost();
        self.held = self.held + after - before;
        if self.held > self.max && !o.overflow {
            o.overflow = true;
            out.push(AccEvent::Error {
                code: "TLP-007",
                message: format!(
                    "tool call {:?} grew past the --max-buffer limit of {} bytes; its arguments were dropped",
                    o.name.as_deref().unwrap_or(""),
                    self.max
                ),
                hint: Some("raise --max-buffer if calls this large are expected".into()),
            });
            // dropped whole: only its keys stay, bounded
            let keys: Vec<Key> = [
                o.index.map(|i| Key::Index(o.choice, i)),
                o.item_id.clone().map(Key::Item),
                o.id.clone().map(Key::Id),
            ]
            .into_iter()
            .flatten()
            .collect();
            self.complete(seq, false, out);
            for k in keys {
                self.forget_later(k);
            }
            return;
        }
        if !o.started && !o.overflow {
            if let Some(name) = &o.name {
                o.started = true;
                out.push(AccEvent::Start {
                    index: o.doc_index,
                    id: o.id_or_derived(),
                    name: name.clone(),
                });
            }
        }
    }

    fn complete(&mut self, seq: u64, cut_off: bool, out: &mut Vec<AccEvent>) {
        let Some(o) = self.open.remove(&seq) else {
            return;
        };
        if let Some(idx) = o.index {
            unlink(&mut self.by_index, &(o.choice, idx), seq);
        }
        if let Some(iid) = &o.item_id {
            unlink(&mut self.by_item, iid.as_str(), seq);
        }
        if let Some(id) = &o.id {
            unlink(&mut self.by_id, id.as_str(), seq);
        }
        unlink(&mut self.by_choice, &o.choice, seq);
        self.held -= o.cost();
        if o.overflow {
            return; // already reported
        }
        let Some(name) = o.name.clone() else {
            out.push(AccEvent::Error {
                code: "TLP-001",
                message: "tool call fragments never named the function".into(),
                hint: None,
            });
            return;
        };
        out.push(AccEvent::Call(Assembled {
            index: o.doc_index,
            id: o.id_or_derived(),
            name,
            arguments: o.args,
            cut_off,
            at: o.at,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frag(index: u64, id: Option<&str>, name: Option<&str>, args: &str) -> Fragment {
        Fragment {
            index: Some(index),
            id: id.map(str::to_string),
            name: name.map(str::to_string),
            arguments: Some(args.to_string()),
            ..Fragment::default()
        }
    }

    #[test]
    fn joins_interleaved_fragments_in_opening_order() {
        let mut acc = Accumulator::new(1 << 20);
        let mut next = 0;
        let mut out = Vec::new();
        acc.push(
            frag(1, Some("b"), Some("g"), "{\"y\":"),
            &mut next,
            0,
            &mut out,
        );
        acc.push(
            frag(0, Some("a"), Some("f"), "{\"x\":"),
            &mut next,
            0,
            &mut out,
        );
        acc.push(frag(1, None, None, "2}"), &mut next, 0, &mut out);
        acc.push(frag(0, None, None, "1}"), &mut next, 0, &mut out);
        acc.finish(None, false, &mut out);
        let calls: Vec<_> = out
            .iter()
            .filter_map(|e| match e {
                AccEvent::Call(a) => Some((a.index, a.id.as_str(), a.arguments.as_str())),
                _ => None,
            })
            .collect();
        assert_eq!(calls, vec![(0, "b", "{\"y\":2}"), (1, "a", "{\"x\":1}")]);
        assert_eq!(acc.held(), 0);
    }
}
