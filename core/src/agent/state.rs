//! The tool loop's state machine: a checked transition table
//! (docs/agent.md#the-state-machine).
//!
//! [`Machine::apply`] looks the pair (state, transition) up in [`target`];
//! a pair the table does not list is refused with a [`BadTransition`] and
//! changes nothing. Each accepted change is a [`Change`] the caller turns
//! into a `state` event. The iteration counter rises on every
//! `BeginThinking`, and on `ApprovalDenied` (the denial goes back to the
//! model, which is another generation: it counts).

use serde::Serialize;
use std::fmt;

/// Where the loop is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum State {
    /// Nothing started yet.
    Idle,
    /// Building the prompt.
    Initializing,
    /// The model is generating.
    Thinking,
    /// A call is being judged (validity, risk, approval rules).
    ParsingToolCall,
    /// A person (or the approver command) is asked.
    WaitingForApproval,
    /// The call's command runs.
    ExecutingTool,
    /// A call's result is added to the history.
    ProcessingResult,
    /// The model answered without calls: the final text.
    Responding,
    /// Final: the run ended normally (final reply, or the iteration limit).
    Completed,
    /// Final: cancelled (Ctrl-C).
    Cancelled,
    /// Final: the model failed, or the request timed out.
    Error,
}

impl State {
    /// Every state, in the order of the table.
    pub const ALL: [State; 11] = [
        State::Idle,
        State::Initializing,
        State::Thinking,
        State::ParsingToolCall,
        State::WaitingForApproval,
        State::ExecutingTool,
        State::ProcessingResult,
        State::Responding,
        State::Completed,
        State::Cancelled,
        State::Error,
    ];

    /// True for Completed, Cancelled and Error.
    pub fn is_final(self) -> bool {
        matches!(self, State::Completed | State::Cancelled | State::Error)
    }

    /// The name written in `state` events.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Idle => "idle",
            State::Initializing => "initializing",
            State::Thinking => "thinking",
            State::ParsingToolCall => "parsing_tool_call",
            State::WaitingForApproval => "waiting_for_approval",
            State::ExecutingTool => "executing_tool",
            State::ProcessingResult => "processing_result",
            State::Responding => "responding",
            State::Completed => "completed",
            State::Cancelled => "cancelled",
            State::Error => "error",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What moves the loop from one state to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Transition {
    /// The request was accepted.
    Start,
    /// An iteration starts (the counter rises).
    BeginThinking,
    /// The generation ended with at least one call.
    DetectToolCall,
    /// The call needs a decision from a person or the approver.
    RequestApproval,
    /// The call may run (auto, remembered, rule, or approved).
    ApprovalGranted,
    /// The last call of the iteration was denied: the denial goes back to
    /// the model at once (the counter rises).
    ApprovalDenied,
    /// The tool ended, whatever its outcome.
    ToolComplete,
    /// The generation ended without a call.
    NoToolCalls,
    /// The final text was sent.
    Complete,
    /// Extension: the next call of the same iteration.
    NextCall,
    /// Extension: the call is not run (unknown tool, invalid arguments,
    /// drafted in reasoning, denied while more calls follow or at the
    /// limit); its result still goes back.
    Skip,
    /// Extension: the iteration limit was reached after a result.
    LimitReached,
    /// Cancelled by the user.
    Cancel,
    /// The model failed or the request timed out.
    Fail,
}

impl Transition {
    /// Every transition.
    pub const ALL: [Transition; 14] = [
        Transition::Start,
        Transition::BeginThinking,
        Transition::DetectToolCall,
        Transition::RequestApproval,
        Transition::ApprovalGranted,
        Transition::ApprovalDenied,
        Transition::ToolComplete,
        Transition::NoToolCalls,
        Transition::Complete,
        Transition::NextCall,
        Transition::Skip,
        Transition::LimitReached,
        Transition::Cancel,
        Transition::Fail,
    ];

    /// The name written in `state` events.
    pub fn as_str(self) -> &'static str {
        match self {
            Transition::Start => "start",
            Transition::BeginThinking => "begin_thinking",
            Transition::DetectToolCall => "detect_tool_call",
            Transition::RequestApproval => "request_approval",
            Transition::ApprovalGranted => "approval_granted",
            Transition::ApprovalDenied => "approval_denied",
            Transition::ToolComplete => "tool_complete",
            Transition::NoToolCalls => "no_tool_calls",
            Transition::Complete => "complete",
            Transition::NextCall => "next_call",
            Transition::Skip => "skip",
            Transition::LimitReached => "limit_reached",
            Transition::Cancel => "cancel",
            Transition::Fail => "fail",
        }
    }

    /// True when taking it starts a new iteration.
    pub fn counts(self) -> bool {
        matches!(self, Transition::BeginThinking | Transition::ApprovalDenied)
    }
}

impl fmt::Display for Transition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The transition table: where `transition` leads from `from`, or `None`
/// when the table does not allow it.
pub fn target(from: State, transition: Transition) -> Option<State> {
    use State as S;
    use Transition as T;
    if from.is_final() {
        return None;
    }
    Some(match (from, transition) {
        (_, T::Cancel) => S::Cancelled,
        (_, T::Fail) => S::Error,
        (S::Idle, T::Start) => S::Initializing,
        (S::Initializing | S::ProcessingResult, T::BeginThinking) => S::Thinking,
        (S::Thinking, T::DetectToolCall) => S::ParsingToolCall,
        (S::Thinking, T::NoToolCalls) => S::Responding,
        (S::ParsingToolCall, T::RequestApproval) => S::WaitingForApproval,
        (S::ParsingToolCall | S::WaitingForApproval, T::ApprovalGranted) => S::ExecutingTool,
        (S::WaitingForApproval, T::ApprovalDenied) => S::Thinking,
        (S::ParsingToolCall | S::WaitingForApproval, T::Skip) => S::ProcessingResult,
        (S::ExecutingTool, T::ToolComplete) => S::ProcessingResult,
        (S::ProcessingResult, T::NextCall) => S::ParsingToolCall,
        (S::ProcessingResult, T::LimitReached) => S::Completed,
        (S::Responding, T::Complete) => S::Completed,
        _ => return None,
    })
}

/// A transition the table does not allow from the current state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadTransition {
    /// The state the machine was (and stays) in.
    pub from: State,
    /// The refused transition.
    pub transition: Transition,
}

impl fmt::Display for BadTransition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "transition {} is not allowed from state {}",
            self.transition, self.from
        )
    }
}

impl std::error::Error for BadTransition {}

/// One accepted change, for the `state` event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The state before.
    pub from: State,
    /// The state after.
    pub to: State,
    /// What moved it.
    pub transition: Transition,
    /// The iteration after the change (from 1 once thinking began).
    pub iteration: u32,
}

/// The state machine: the current state and the iteration counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    state: State,
    iteration: u32,
}

impl Default for Machine {
    fn default() -> Self {
        Machine::new()
    }
}

impl Machine {
    /// A machine in [`State::Idle`], iteration 0.
    pub fn new() -> Machine {
        Machine {
            state: State::Idle,
            iteration: 0,
        }
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.state
    }

    /// The iteration counter.
    pub fn iteration(&self) -> u32 {
        self.iteration
    }

    /// Takes `transition` if the table allows it from the current state;
    /// otherwise refuses it and changes nothing.
    pub fn apply(&mut self, transition: Transition) -> Result<Change, BadTransition> {
        let from = self.state;
        let to = target(from, transition).ok_or(BadTransition { from, transition })?;
        if transition.counts() {
            self.iteration += 1;
        }
        self.state = to;
        Ok(Change {
            from,
            to,
            transition,
            iteration: self.iteration,
        })
    }
}
