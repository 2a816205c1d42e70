//! Running the calls with a person in control: the pieces of `toolcall
//! exec` and `toolcall loop` that know nothing of processes or terminals
//! (docs/agent.md).
//!
//! * [`state`]: the loop's state machine, a checked transition table;
//! * [`settings`]: limits and defaults, each refused with its own message;
//! * [`approval`]: rules, patterns, remembered permissions, the session
//!   cache and the order of decision;
//! * [`binding`]: which command runs a tool;
//! * [`gather`]: one model reply's calls, prose and history entry;
//! * [`echo`]: what of a reply is the prompt given back, not the model's;
//! * [`result`]: `tool_result` records and what goes back to the model;
//! * [`prompt`]: the system prompt, tool definitions and conversation;
//! * [`events`]: the envelope of the loop's event records.
//!
//! ```
//! use toolcall_core::agent::state::{Machine, State, Transition};
//! let mut m = Machine::new();
//! m.apply(Transition::Start).unwrap();
//! m.apply(Transition::BeginThinking).unwrap();
//! assert_eq!((m.state(), m.iteration()), (State::Thinking, 1));
//! assert!(m.apply(Transition::Complete).is_err()); // refused: nothing changes
//! assert_eq!(m.state(), State::Thinking);
//! ```

pub mod approval;
pub mod binding;
pub mod echo;
pub mod events;
pub mod gather;
pub mod prompt;
pub mod result;
pub mod settings;
pub mod state;

/// The summary of a call to a tool the tools file does not list.
pub fn unknown_summary(name: &str) -> String {
    format!("Execute unknown tool: {name}")
}
