//! Which sessions a list shows: by agent, by working directory, by date
//! (`deck sessions --agent codex --cwd . --since 2026-11-01`, and the
//! list's own filter keys).

use super::read::SessionRow;

/// A filter of library rows; the default keeps every row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// `dsh`, `claude-code`, `codex`, `acp` (`claude` is Claude Code).
    pub agent: Option<String>,
    /// An absolute directory: the session's cwd, exactly.
    pub cwd: Option<String>,
    /// Epoch ms: sessions active at or after it.
    pub since: Option<i64>,
}

impl Filter {
    /// The agent's library name (`claude` is `claude-code`).
    pub fn agent(&self) -> Option<&str> {
        self.agent.as_deref().map(|a| match a {
            "claude" => "claude-code",
            a => a,
        })
    }

    pub fn keeps(&self, r: &SessionRow) -> bool {
        self.agent().is_none_or(|a| r.agent == a)
            && self.cwd.as_deref().is_none_or(|c| {
                r.cwd.as_deref().map(|rc| rc.trim_end_matches('/')) == Some(c.trim_end_matches('/'))
            })
            && self
                .since
                .is_none_or(|t| r.ended.or(r.started).is_some_and(|e| e >= t))
    }

    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// What it keeps, in words (`codex · in /work/app · since 2026-11-01`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(a) = &self.agent {
            parts.push(a.clone());
        }
        if let Some(c) = &self.cwd {
            parts.push(format!("in {c}"));
        }
        if let Some(t) = self.since {
            parts.push(format!("since {}", day(t)));
        }
        parts.join(" · ")
    }
}

/// `YYYY-MM-DD` (UTC) as epoch ms.
pub fn parse_day(s: &str) -> Option<i64> {
    crate::agents::read::epoch_ms(&format!("{}T00:00:00Z", s.trim()))
}

/// Epoch ms as `YYYY-MM-DD` (UTC).
pub fn day(ms: i64) -> String {
    iso(ms).chars().take(10).collect()
}

/// Epoch ms as `2026-11-30T20:05:12Z`.
pub fn iso(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, s) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mon = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mon <= 2);
    format!(
        "{y:04}-{mon:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(agent: &str, cwd: &str, t: i64) -> SessionRow {
        SessionRow {
            agent: agent.into(),
            cwd: Some(cwd.into()),
            started: Some(t),
            ..SessionRow::default()
        }
    }

    #[test]
    fn filters_by_agent_cwd_and_day() {
        let day1 = parse_day("2026-11-01").unwrap();
        let rows = [row("codex", "/w/a", day1 - 1), row("claude-code", "/w/a/", day1)];
        let keep = |f: &Filter| rows.iter().filter(|r| f.keeps(r)).count();
        assert_eq!(keep(&Filter::default()), 2);
        assert_eq!(keep(&Filter { agent: Some("claude".into()), ..Filter::default() }), 1);
        assert_eq!(keep(&Filter { cwd: Some("/w/a".into()), ..Filter::default() }), 2);
        assert_eq!(keep(&Filter { cwd: Some("/w".into()), ..Filter::default() }), 0);
        assert_eq!(keep(&Filter { since: Some(day1), ..Filter::default() }), 1);
    }

    #[test]
    fn dates() {
        assert_eq!(iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso(951_782_400_000 + 3_723_000), "2000-02-29T01:02:03Z");
        assert_eq!(day(parse_day("2026-12-02").unwrap()), "2026-12-02");
        assert_eq!(parse_day("soon"), None);
    }
}
