//! The `bank` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    sudoku_bank::cli::main()
}
