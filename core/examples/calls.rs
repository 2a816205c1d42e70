//! Reads a model's output from stdin in small chunks, as it would arrive from
//! a server, and prints each tool call as soon as the engine is sure of it,
//! then the prose and reasoning it kept apart.
//!
//! ```sh
//! printf 'Checking.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>' \
//!   | cargo run -p toolcall-core --example calls
//! ```

use std::io::Read;
use toolcall_core::{Config, Engine, Event};

fn main() -> std::io::Result<()> {
    let mut engine = Engine::new(Config::default());
    let (mut text, mut reasoning) = (Vec::new(), Vec::new());
    let mut on_event = |ev: Event<'_>| match ev {
        Event::Text { bytes, .. } => text.extend_from_slice(bytes),
        Event::Reasoning { content, .. } => reasoning.extend_from_slice(content),
        Event::ToolCall(call) => println!(
            "call #{} {}({}) [{}]",
            call.index, call.name, call.arguments, call.format
        ),
        Event::Error(err) => eprintln!("broken call: {}", err.message),
        _ => {}
    };
    let mut stdin = std::io::stdin().lock();
    let mut chunk = [0u8; 16];
    loop {
        let n = stdin.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        engine.feed(&chunk[..n], &mut on_event);
    }
    engine.finish(&mut on_event);
    println!("text: {:?}", String::from_utf8_lossy(&text));
    if !reasoning.is_empty() {
        println!("reasoning: {:?}", String::from_utf8_lossy(&reasoning));
    }
    Ok(())
}
