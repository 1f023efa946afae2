//! Where a bank is: a SQLite file (the embedded default) or a PostgreSQL database,
//! told apart once, when `--db` is parsed.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A bank's address, as `--db` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database: `postgres://…` or `postgresql://…`, including the unix-socket
    /// form `postgres:///bank?host=/run/postgresql`.
    Postgres(PostgresUrl),
}

/// A PostgreSQL connection URL, checked to parse, shown without its password.
#[derive(Clone, PartialEq, Eq)]
pub struct PostgresUrl {
    url: String,
}

impl PostgresUrl {
    /// The URL as given, password included, for connecting.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The connection settings the URL names.
    pub fn config(&self) -> postgres::Config {
        self.url.parse().expect("checked when parsed")
    }

    /// Whether two URLs name the same database (hosts, ports and database name).
    pub fn same_database(&self, other: &PostgresUrl) -> bool {
        let key = |c: postgres::Config| {
            format!(
                "{:?} {:?} {:?}",
                c.get_hosts(),
                c.get_ports(),
                c.get_dbname()
            )
        };
        key(self.config()) == key(other.config())
    }
}

impl fmt::Display for PostgresUrl {
    /// The URL with any password replaced by `***`, for messages and logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((scheme, rest)) = self.url.split_once("://") else {
            return f.write_str(&self.url);
        };
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(authority_end);
        match authority.rsplit_once('@') {
            Some((user_info, host)) => match user_info.split_once(':') {
                Some((user, _password)) => write!(f, "{scheme}://{user}:***@{host}{tail}"),
                None => f.write_str(&self.url),
            },
            None => f.write_str(&self.url),
        }
    }
}

impl fmt::Debug for PostgresUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PostgresUrl({self})")
    }
}

impl FromStr for Location {
    type Err = String;

    fn from_str(text: &str) -> Result<Location, String> {
        if text.is_empty() {
            return Err("empty bank location: give a file such as bank.sqlite or a \
                        postgres://user@host/dbname URL"
                .into());
        }
        let lower = text.to_ascii_lowercase();
        if !(lower.starts_with("postgres://") || lower.starts_with("postgresql://")) {
            if lower.contains("://") {
                return Err(format!(
                    "'{text}' is neither a file path nor a PostgreSQL URL: banks live in a \
                     SQLite file (bank.sqlite) or at postgres://user@host/dbname"
                ));
            }
            return Ok(Location::Sqlite(PathBuf::from(text)));
        }
        let url = PostgresUrl { url: text.into() };
        match text.parse::<postgres::Config>() {
            Ok(config) if config.get_dbname().is_none() => Err(format!(
                "PostgreSQL URL '{url}' names no database: add it after the host, as in \
                 postgres://user@host/bank or postgres:///bank?host=/run/postgresql"
            )),
            Ok(_) => Ok(Location::Postgres(url)),
            Err(e) => Err(format!(
                "cannot read PostgreSQL URL '{url}': {e}; the forms are \
                 postgres://user[:password]@host[:port]/dbname and \
                 postgres:///dbname?host=/socket/folder"
            )),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => write!(f, "{url}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_urls() {
        assert_eq!(
            "bank.sqlite".parse::<Location>(),
            Ok(Location::Sqlite("bank.sqlite".into()))
        );
        for url in [
            "postgres://bank@db.example/bank",
            "postgresql://u:secret@127.0.0.1:5433/bank",
            "postgres:///bank?host=/run/postgresql",
        ] {
            assert!(
                matches!(url.parse::<Location>(), Ok(Location::Postgres(_))),
                "{url}"
            );
        }
    }

    #[test]
    fn hides_the_password() {
        let l: Location = "postgresql://u:secret@127.0.0.1:5433/bank".parse().unwrap();
        assert_eq!(l.to_string(), "postgresql://u:***@127.0.0.1:5433/bank");
        let l: Location = "postgres:///bank?host=/run/postgresql".parse().unwrap();
        assert_eq!(l.to_string(), "postgres:///bank?host=/run/postgresql");
    }

    #[test]
    fn refuses_what_is_not_a_bank() {
        let e = "mysql://x/y".parse::<Location>().unwrap_err();
        assert!(
            e.contains("neither a file path nor a PostgreSQL URL"),
            "{e}"
        );
        let e = "postgres://host".parse::<Location>().unwrap_err();
        assert!(e.contains("names no database"), "{e}");
        let e = "postgres://u@h:notaport/db"
            .parse::<Location>()
            .unwrap_err();
        assert!(e.contains("cannot read PostgreSQL URL"), "{e}");
    }
}
