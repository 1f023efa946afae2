//! A throwaway PostgreSQL server for the tests: `initdb` into a temp dir and `pg_ctl
//! start` on a unix socket there and on a free TCP port of 127.0.0.1, one server per test
//! binary, one database per test. As root, the server runs as the `postgres` user
//! (`initdb` refuses root). A watchdog stops the server and removes its folder when the
//! test process ends.
//!
//! Without server binaries the PostgreSQL half of the tests is skipped with a loud
//! message, unless `SUDOKU_BANK_REQUIRE_POSTGRES=1` (set by `.ci/run`), which makes that
//! a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The variable that turns a missing server into a failure.
pub const REQUIRE: &str = "SUDOKU_BANK_REQUIRE_POSTGRES";

/// A running server.
pub struct Server {
    socket_dir: PathBuf,
    port: u16,
}

/// A database of its own on the shared server.
pub struct Database {
    /// The name on the server.
    pub name: String,
    port: u16,
    socket_dir: PathBuf,
}

impl Database {
    /// The URL over the unix socket.
    pub fn socket_url(&self) -> String {
        format!(
            "postgres:///{}?host={}&port={}&user=postgres",
            self.name,
            self.socket_dir.display(),
            self.port
        )
    }
}

/// A new empty database on this binary's server, or `None` (after a loud message) when
/// no PostgreSQL can be started here and CI did not ask for one.
pub fn database() -> Option<Database> {
    static SERVER: OnceLock<Option<Server>> = OnceLock::new();
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let server = SERVER.get_or_init(|| match start() {
        Ok(s) => Some(s),
        Err(why) if std::env::var(REQUIRE).is_ok_and(|v| v == "1") => {
            panic!("{REQUIRE}=1 but no PostgreSQL server could be started: {why}")
        }
        Err(why) => {
            eprintln!(
                "\n!!!!!!!! SKIPPING the PostgreSQL half of these tests: {why}\n\
                 !!!!!!!! (install the PostgreSQL server binaries, or set {REQUIRE}=1 to fail instead)\n"
            );
            None
        }
    });
    let server = server.as_ref()?;
    let name = format!(
        "t{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    let admin = format!(
        "postgres:///postgres?host={}&port={}&user=postgres",
        server.socket_dir.display(),
        server.port
    );
    let mut client = postgres::Client::connect(&admin, postgres::NoTls)
        .unwrap_or_else(|e| panic!("connect to the test server: {e}"));
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap_or_else(|e| panic!("create database {name}: {e}"));
    Some(Database {
        name,
        port: server.port,
        socket_dir: server.socket_dir.clone(),
    })
}

/// The folder of `initdb`, `pg_ctl` and `postgres`.
fn bin_dir() -> Result<PathBuf, String> {
    if let Ok(dir) = std::env::var("SUDOKU_BANK_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| "no /usr/lib/postgresql (set SUDOKU_BANK_PG_BIN to the server's bin folder)")?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").is_file() && p.join("pg_ctl").is_file())
        .collect();
    found.sort();
    found
        .pop()
        .ok_or_else(|| "no initdb under /usr/lib/postgresql/*/bin".to_string())
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// `program args…`, as the `postgres` user when this process is root.
fn as_server_user(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn run(mut cmd: Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

fn start() -> Result<Server, String> {
    let bin = bin_dir()?;
    let root = tempfile::Builder::new()
        .prefix("sbpg")
        .tempdir_in("/tmp")
        .map_err(|e| format!("temp dir: {e}"))?
        .keep();
    if is_root() {
        run(
            {
                let mut c = Command::new("chown");
                c.arg("postgres").arg(&root);
                c
            },
            "chown the server folder to postgres",
        )?;
    }
    let data = root.join("data");
    let mut initdb = as_server_user(&bin.join("initdb"));
    initdb
        .arg("-D")
        .arg(&data)
        .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    run(initdb, "initdb")?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("free port: {e}"))?
        .port();
    let options = format!(
        "-k {} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off \
         -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
        root.display()
    );
    let mut pg_ctl = as_server_user(&bin.join("pg_ctl"));
    pg_ctl
        .arg("-D")
        .arg(&data)
        .arg("-l")
        .arg(root.join("log"))
        .args(["-w", "-o", &options, "start"]);
    run(pg_ctl, "pg_ctl start")?;
    // Stop the server and remove its folder once this test process is gone.
    let stop = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; \
         {runas} {pg_ctl} -D {data} stop -m immediate >/dev/null 2>&1; rm -rf {root}",
        pid = std::process::id(),
        runas = if is_root() {
            "runuser -u postgres --"
        } else {
            ""
        },
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        root = root.display(),
    );
    Command::new("sh")
        .args(["-c", &stop])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("watchdog: {e}"))?;
    Ok(Server {
        socket_dir: root,
        port,
    })
}
