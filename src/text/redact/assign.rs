//! Secrets given by their names: `DB_PASSWORD=…`, `export API_TOKEN="…"`,
//! `db_password: …` in YAML, `"password": "…"` in JSON (also escaped, as
//! inside a JSON string), `api_key = '…'` in TOML or Python,
//! `--password …` on a command line.
//!
//! Owns the judgement of one assignment: whether its name says the value
//! is a secret (the words in `rules.toml`'s `[assignments]`), and whether
//! the value is a literal that could be one — not a function call, a type,
//! a variable or an expression of code, a path, a URL or a placeholder.
//! A name of a password (`*PASSWORD*`, `DB_PASS`) takes any such value; a
//! name of a key, token or secret takes values that look random.

use std::collections::HashSet;

use regex::Regex;
use serde::Deserialize;

use super::RedactError;
use super::rules::entropy;

/// The kinds this detector reports.
pub const PASSWORD: &str = "password";
pub const SECRET: &str = "secret";

/// The `[assignments]` table of `rules.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    password: Vec<String>,
    password_qualified: Vec<String>,
    secret: Vec<String>,
    key: Vec<String>,
    key_qualifiers: Vec<String>,
    placeholders: Vec<String>,
    placeholder_parts: Vec<String>,
    types: Vec<String>,
    line_prefixes: Vec<String>,
    min_secret_len: usize,
    min_secret_entropy: f64,
    min_password_len: usize,
}

/// The compiled detector.
#[derive(Debug)]
pub struct Assignments {
    spec: Spec,
    password: HashSet<String>,
    password_qualified: HashSet<String>,
    secret: HashSet<String>,
    key: HashSet<String>,
    key_qualifiers: HashSet<String>,
    placeholders: HashSet<String>,
    types: HashSet<String>,
    assign: Regex,
    flag: Regex,
}

/// The words that make the detector run on a text (its prefilter).
pub const KEYWORDS: &[&str] = &[
    "pass", "pwd", "pw", "secret", "token", "key", "credential", "cred",
];

/// How an assignment is written, which says what a bare value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `NAME=value` in `.env`, a shell or a Dockerfile: a bare value is literal.
    Env,
    /// `name: value` alone on a line (YAML): a bare value is literal.
    Yaml,
    /// `--name value`: literal.
    Flag,
    /// A JSON string under a key: literal.
    Keyed,
    /// Anything else (code): a bare value is an expression unless it looks random.
    Code,
}

impl Assignments {
    pub fn new(table: &toml::Value) -> Result<Assignments, RedactError> {
        let spec: Spec = table
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| RedactError::Rules(format!("[assignments]: {e}")))?;
        let set = |v: &[String]| v.iter().map(|s| s.to_lowercase()).collect::<HashSet<_>>();
        let words = KEYWORDS.join("|");
        let compile = |p: &str| {
            Regex::new(p).map_err(|e| RedactError::Rule {
                kind: "assignments".into(),
                why: e.to_string(),
            })
        };
        // A name holding one of the keywords, a quoted key's closing quote
        // (maybe escaped), an operator, and a value: double-quoted (maybe
        // with escaped quotes), single-quoted, back-quoted or bare.
        let assign = compile(&format!(
            r#"(?i)(?P<name>[A-Za-z0-9_.\-]{{0,64}}?(?:{words})[A-Za-z0-9_.\-]{{0,32}})(?:\\?["'`])?[ \t]*(?P<op>:=|=>|=|:)[ \t]*(?:\\"(?P<edq>(?:[^"\\\n]|\\[^"\n])*)\\"|"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>[^'\n]*)'|`(?P<bq>[^`\n]*)`|(?P<bare>[^\s"'`,;&)\]}}\\]+))"#
        ))?;
        let flag = compile(&format!(
            r#"(?i)(?:^|[ \t])(?P<name>--[A-Za-z0-9\-]{{0,48}}?(?:{words})[A-Za-z0-9\-]{{0,24}})(?:=|[ \t]+)(?:"(?P<dq>[^"\n]*)"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s"'`;&|)]+))"#
        ))?;
        Ok(Assignments {
            password: set(&spec.password),
            password_qualified: set(&spec.password_qualified),
            secret: set(&spec.secret),
            key: set(&spec.key),
            key_qualifiers: set(&spec.key_qualifiers),
            placeholders: set(&spec.placeholders),
            types: spec.types.iter().cloned().collect(),
            spec,
            assign,
            flag,
        })
    }

    /// Push the (start, end, kind) of each secret value assigned in `text`.
    pub fn find(&self, text: &str, out: &mut Vec<(usize, usize, &'static str)>) {
        for (re, flag) in [(&self.assign, false), (&self.flag, true)] {
            for caps in re.captures_iter(text) {
                let (Some(name), Some(whole)) = (caps.name("name"), caps.get(0)) else {
                    continue;
                };
                let quoted = ["edq", "dq", "sq", "bq"].iter().find_map(|g| caps.name(g));
                let (value, quoted) = match (quoted, caps.name("bare")) {
                    (Some(v), _) => (v, true),
                    (None, Some(v)) => (v, false),
                    _ => continue,
                };
                // A name cut out of a longer word is not this name, nor is
                // a URL's user (`https://x-access-token:…@`: url-password's)
                // or a variable read (`${DB_PASSWORD:?unset}`).
                let before = &text[..name.start()];
                if before
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    || before.ends_with("//")
                    || before.ends_with('$')
                    || before.ends_with("${")
                {
                    continue;
                }
                // `name:value` with nothing between: a shell expansion's
                // `${NAME:?unset}` or `${NAME:-default}` cut short, a
                // `user:password` pair (url-password's), not YAML.
                if !quoted
                    && caps.name("op").is_some_and(|op| op.as_str() == ":" && op.end() == value.start())
                {
                    continue;
                }
                let form = if flag {
                    Form::Flag
                } else {
                    self.form(text, name.start(), name.as_str(), caps.name("op").map(|m| m.as_str()), value.end())
                };
                let after = text[whole.end()..].chars().next();
                if let Some(kind) = self.judge(name.as_str(), value.as_str(), quoted, form, after) {
                    out.push((value.start(), value.end(), kind));
                }
            }
        }
    }

    /// What shape the assignment at `at` has.
    fn form(&self, text: &str, at: usize, name: &str, op: Option<&str>, end: usize) -> Form {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let prefix = text[line_start..at].trim();
        let alone = prefix.is_empty()
            || self
                .spec
                .line_prefixes
                .iter()
                .any(|p| prefix.eq_ignore_ascii_case(p));
        let rest = text[end..].split('\n').next().unwrap_or("");
        let rest = rest.trim_start_matches(['"', '\'']).trim();
        let ends_line = rest.is_empty() || rest.starts_with('#');
        let upper = name.chars().any(|c| c.is_ascii_uppercase())
            && !name.chars().any(|c| c.is_ascii_lowercase());
        match op {
            Some("=") if alone && (upper || !prefix.is_empty()) && ends_line => Form::Env,
            Some(":") if alone && ends_line => Form::Yaml,
            _ => Form::Code,
        }
    }

    /// The kind of secret `value` is under `name`, or none.
    pub fn judge(
        &self,
        name: &str,
        value: &str,
        quoted: bool,
        form: Form,
        after: Option<char>,
    ) -> Option<&'static str> {
        let kind = self.kind_of(name)?;
        let value = value.trim();
        if value.is_empty() || value.contains('‹') || self.placeholder(value) {
            return None;
        }
        if !quoted {
            if after.is_some_and(|c| matches!(c, '(' | '<' | '[' | '.' | ':'))
                || value.contains(['(', ')', '[', ']', '{', '}', '<', '>'])
                || value.starts_with(['$', '%', '&', '*', '@', '!', '#', '\\', '='])
                || self.types.contains(value)
            {
                return None;
            }
            let literal = matches!(form, Form::Env | Form::Yaml | Form::Flag | Form::Keyed);
            if !literal && identifier(value) {
                return None;
            }
            if type_like(value) {
                return None;
            }
        }
        if value.starts_with(['/', '~']) || value.starts_with("./") || value.contains("://") {
            return None;
        }
        // A dotted path of names (`process.env.JWT_SECRET`, `settings.key`)
        // is where a secret is read from, in any form.
        if !quoted && value.contains('.') && identifier(value) {
            return None;
        }
        match kind {
            PASSWORD => (value.chars().count() >= self.spec.min_password_len
                && (quoted || form != Form::Code || !identifier(value)))
            .then_some(PASSWORD),
            _ => self.random(value).then_some(SECRET),
        }
    }

    /// Whether `name` names a password, another secret, or neither: by
    /// its last word (`DB_PASSWORD`, `dbPassword`, `db.password`).
    fn kind_of(&self, name: &str) -> Option<&'static str> {
        let name = name.trim_start_matches('-');
        let words = words(name);
        let last = words.last()?;
        let before = words.len().checked_sub(2).and_then(|i| words.get(i));
        if self.password.contains(last)
            || (before.is_some() && self.password_qualified.contains(last))
        {
            return Some(PASSWORD);
        }
        if self.secret.contains(last) {
            return Some(SECRET);
        }
        if self.key.contains(last) {
            let upper = name.len() > last.len()
                && !name.chars().any(|c| c.is_ascii_lowercase())
                && name.chars().any(|c| c.is_ascii_uppercase());
            if upper || before.is_some_and(|b| self.key_qualifiers.contains(b)) {
                return Some(SECRET);
            }
        }
        None
    }

    /// A value that stands for one: `changeme`, `<your-token>`, `${X}`, `xxxx`.
    fn placeholder(&self, value: &str) -> bool {
        let lower = value.to_lowercase();
        let mut chars = value.chars();
        let first = chars.next();
        self.placeholders.contains(&lower)
            || self
                .spec
                .placeholder_parts
                .iter()
                .any(|p| lower.contains(p.as_str()))
            || (value.chars().count() > 1 && chars.all(|c| Some(c) == first))
            || value.ends_with("...")
            || value.ends_with('…')
            || (value.starts_with('<') && value.ends_with('>'))
            || value.starts_with("${")
            || value.starts_with("{{")
            || value.starts_with("%(")
            || (value.starts_with('$') && identifier(&value[1..]))
    }

    /// A key, token or secret: long enough and random enough, with a
    /// digit or mixed case (not a word or an identifier).
    fn random(&self, value: &str) -> bool {
        let digit = value.chars().any(|c| c.is_ascii_digit());
        let upper = value.chars().any(|c| c.is_ascii_uppercase());
        let lower = value.chars().any(|c| c.is_ascii_lowercase());
        value.len() >= self.spec.min_secret_len
            && !value.contains(char::is_whitespace)
            && (digit || (upper && lower))
            && !(digit && !upper && !lower)
            && entropy(value) >= self.spec.min_secret_entropy
    }
}

/// A name's words, lowercased: split at `_`, `-`, `.` and case changes.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// An identifier or a path of them (`self.password`, `cfg::TOKEN`), no digit.
fn identifier(v: &str) -> bool {
    !v.is_empty()
        && !v.chars().any(|c| c.is_ascii_digit())
        && v.split(['.', ':'])
            .filter(|p| !p.is_empty())
            .all(|p| p.chars().all(|c| c.is_ascii_alphabetic() || c == '_'))
        && v.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

/// A type's name (`String`, `SecretStr`, `&str`): capitalised words, no digit.
fn type_like(v: &str) -> bool {
    let v = v.trim_start_matches('&');
    let mut c = v.chars();
    c.next().is_some_and(|f| f.is_ascii_uppercase())
        && v.chars().all(|c| c.is_ascii_alphabetic())
        && v.chars().any(|c| c.is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_every_way() {
        assert_eq!(words("DB_PASSWORD"), ["db", "password"]);
        assert_eq!(words("dbPassword"), ["db", "password"]);
        assert_eq!(words("spring.datasource.password"), ["spring", "datasource", "password"]);
        assert_eq!(words("--api-key"), ["api", "key"]);
        assert_eq!(words("AccountKey"), ["account", "key"]);
        assert_eq!(words("OAuth2Token"), ["oauth2", "token"]);
    }
}
