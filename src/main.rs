//! `freshlab`: the command-line face of the laboratory (see `freshlab help`).

mod cli;

fn main() {
    return_large_buffers_to_the_system();
    end_quietly_when_the_reader_leaves();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if let Err(failure) = cli::main_with(&argv) {
        eprintln!("freshlab: {}", failure.message);
        std::process::exit(failure.code);
    }
}

/// glibc raises its mmap threshold to the size of each large buffer freed, so the buffers
/// of a run's next capacity (allocations, schedules, accounts) are carved from arenas
/// the previous ones fragmented: the WEBBASE preset's peak resident memory grew from
/// 0.47 GB with one capacity to 0.70 GB with three, over the 0.58 GB its estimate
/// (live bytes, measured by tests/cost_model.rs) allows. A fixed threshold of 128 KiB
/// maps every larger buffer on its own and unmaps it when freed: 0.57 GB with three
/// capacities, the same speed (measured with `/usr/bin/time`, BENCHMARKS.md).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_large_buffers_to_the_system() {
    // SAFETY: mallopt only sets an allocator parameter; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_large_buffers_to_the_system() {}

/// A reader that stops reading (`freshlab trace | head`) ends the command as it ends
/// other Unix tools, by SIGPIPE: Rust ignores the signal, so that every print after it
/// panicked ("failed printing to stdout: Broken pipe").
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn end_quietly_when_the_reader_leaves() {
    // SAFETY: restores the signal's default action; called before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn end_quietly_when_the_reader_leaves() {}
