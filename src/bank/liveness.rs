//! Which `running` runs are dead: a run of this host whose process is gone, or a run of
//! any host that has not written for longer than [`LEASE`]. Backends list their running
//! runs; the rule is here, once.

use std::path::Path;
use std::time::Duration;

/// How long a running run may go without writing before others take it for dead. A
/// worker writes its counters with every batch (at least every round of attempts, a few
/// seconds at most), so a live worker is never near this.
pub const LEASE: Duration = Duration::from_secs(60);

/// A run whose row says `running`.
pub struct Running {
    /// Its row id.
    pub id: i64,
    /// The process that runs it.
    pub pid: Option<u32>,
    /// That process's host.
    pub host: Option<String>,
    /// Whether it wrote within the last [`LEASE`].
    pub fresh: bool,
}

impl Running {
    /// Whether the run's process is gone: on this host by its pid, elsewhere by its lease.
    pub fn is_dead(&self, this_host: &str) -> bool {
        if self.host.as_deref() == Some(this_host) {
            !self.pid.is_some_and(process_alive)
        } else {
            !self.fresh
        }
    }
}

/// This machine's name, stored with each run.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_else(|_| "unknown".into())
}

/// Whether a process of this host is alive (Linux `/proc`; elsewhere assumed alive).
fn process_alive(pid: u32) -> bool {
    let proc_root = Path::new("/proc");
    !proc_root.is_dir() || proc_root.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_by_pid_here_and_by_lease_elsewhere() {
        let here = host_name();
        let run = |pid, host: &str, fresh| Running {
            id: 1,
            pid: Some(pid),
            host: Some(host.into()),
            fresh,
        };
        assert!(!run(std::process::id(), &here, false).is_dead(&here));
        assert!(run(u32::MAX - 1, &here, true).is_dead(&here));
        assert!(!run(1, "elsewhere", true).is_dead(&here));
        assert!(run(1, "elsewhere", false).is_dead(&here));
    }
}
