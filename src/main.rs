//! The `toolcall` binary: parse the command line, run, map the outcome to an
//! exit status (0 found, 1 not found, 2 error; a closed pipe exits 0 quietly,
//! a stdout closed before the start is `/dev/null`).

use std::process::ExitCode;
use toolcall::cli::{self, Outcome};

fn main() -> ExitCode {
    // toolcall's internal step for starting a tool (not a subcommand: never
    // in --help or the completions)
    let mut args = std::env::args_os();
    if args.nth(1).is_some_and(|a| a == cli::child::HELPER) {
        return cli::child::helper_main(args.collect());
    }
    // through cli::command()'s wording of some flags per subcommand
    let cli = cli::parse_args();
    match cli::run(cli) {
        Ok(_) if cli::failed() => ExitCode::from(2),
        Ok(Outcome::Found) => ExitCode::from(0),
        Ok(Outcome::NotFound) => ExitCode::from(1),
        Ok(Outcome::Exit(n)) => ExitCode::from(n),
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::from(0),
        Err(e) => {
            cli::report(&format!("{e:#}"));
            ExitCode::from(2)
        }
    }
}
