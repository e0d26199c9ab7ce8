use super::*;
use base64::Engine;

/// The stock rules with `/home/alice` as home, compiled once for the tests.
fn stock() -> &'static Redactor {
    static R: OnceLock<Redactor> = OnceLock::new();
    R.get_or_init(|| Redactor::new(STOCK, Some("/home/alice")).unwrap())
}

fn red(r: &Redactor, s: &str) -> String {
    r.redact(s, &mut Tally::default()).unwrap().into_owned()
}

/// The planted secrets of `tests/fixtures/redact/planted.toml`: (label,
/// mark expected or "" for any, text, parts that must go).
fn planted() -> Vec<(String, String, String, Vec<String>)> {
    #[derive(serde::Deserialize)]
    struct One {
        kind: String,
        #[serde(default)]
        mark: String,
        text: String,
        secrets: Vec<String>,
    }
    #[derive(serde::Deserialize)]
    struct File {
        planted: Vec<One>,
    }
    let f: File = toml::from_str(include_str!("../../../tests/fixtures/redact/planted.toml")).unwrap();
    f.planted
        .into_iter()
        .map(|p| (p.kind, p.mark, p.text, p.secrets))
        .collect()
}

/// A test per rule of deck's file: each sample is replaced by its kind and
/// its secret is gone, alone, in a sentence and in a JSON string.
#[test]
fn every_deck_rule_replaces_its_sample() {
    let r = stock();
    let own: Vec<&Rule> = r.rules().iter().filter(|x| x.set() == 1).collect();
    assert!(own.len() >= 7, "{} rules", own.len());
    for rule in own {
        let sample = rule.sample().expect("deck's rules carry a sample");
        let secret = rule.secret().unwrap();
        for text in [
            sample.to_string(),
            format!("see {sample} here"),
            format!("{{\"x\": \"{sample}\"}}"),
        ] {
            let mut tally = Tally::default();
            let out = r.redact(&text, &mut tally).unwrap();
            assert!(out.contains("‹redacted:"), "{}: {text:?} → {out:?}", rule.kind());
            assert!(!out.contains(secret), "{}: {out:?}", rule.kind());
        }
        // Alone, the sample is named by its own rule.
        let out = red(r, sample);
        assert!(out.contains(&mark(rule.kind())), "{}: {out}", rule.kind());
    }
}

/// gitleaks' file as shipped: every rule with a regex and no path
/// restriction compiles and has keywords; the report names the version.
#[test]
fn the_field_rule_set_is_whole() {
    let r = stock();
    let field: Vec<&Rule> = r.rules().iter().filter(|x| x.set() == 0).collect();
    assert_eq!(field.len(), 217);
    assert!(field.iter().all(|x| !x.keywords().is_empty()));
    assert!(r.version().starts_with("gitleaks v8.30.1 (217 of 222 rules) + deck ("), "{}", r.version());
}

#[test]
fn every_planted_secret_is_removed_by_its_kind() {
    let r = stock();
    let all = planted();
    let labels: std::collections::BTreeSet<&str> = all.iter().map(|p| p.0.as_str()).collect();
    assert!(labels.len() >= 35, "{} kinds", labels.len());
    for (label, mark_kind, text, secrets) in &all {
        let out = red(r, text);
        for s in secrets {
            assert!(!out.contains(s.as_str()), "{label}: {s} survives in {out}");
        }
        let want = if mark_kind.is_empty() { "‹redacted:".to_string() } else { mark(mark_kind) };
        assert!(out.contains(&want), "{label}: {out} lacks {want}");
    }
}

#[test]
fn the_keyword_stays_visible() {
    let r = stock();
    assert_eq!(
        red(r, "Authorization: Bearer abc.def-123"),
        "Authorization: Bearer ‹redacted:bearer›"
    );
    assert_eq!(
        red(r, "curl https://bob:s3cr3t@example.com/x"),
        "curl https://bob:‹redacted:url-password›@example.com/x"
    );
    assert_eq!(
        red(r, r#"{"password": "two words"}"#),
        r#"{"password": "‹redacted:password›"}"#
    );
    assert_eq!(red(r, "password=hunter22&x=1"), "password=‹redacted:password›&x=1");
    // A value already replaced is not replaced again, even in a link.
    let link = "https://bob:%E2%80%B9redacted:url-password%E2%80%BA@example.com/";
    assert_eq!(red(r, link), link);
}

/// Assignments: the forms people write secrets in.
#[test]
fn secrets_named_by_their_assignment_go() {
    let r = stock();
    for (text, gone) in [
        ("DB_PASSWORD=hunter2", "hunter2"),
        ("export DB_PASSWORD=\"two words\"", "two words"),
        ("DB_PASS=correcthorse", "correcthorse"),
        ("MYSQL_ROOT_PASSWORD: rootpw42", "rootpw42"),
        ("  db_password: kX9mQ2pL", "kX9mQ2pL"),
        ("password = \"Sup3r\"", "Sup3r"),
        ("{\\\"password\\\": \\\"Sup3rSecret\\\"}", "Sup3rSecret"),
        ("SECRET_KEY='django-insecure-k#9x!v@2$abc%^&*(-_=+)q1'", "k#9x!v@2"),
        ("API_TOKEN=4b825dc642cb6eb9a060e54bf8d69288fbee4904", "4b825dc642"),
        ("HEROKU_API_KEY=123e4567-e89b-12d3-a456-426614174000", "426614174000"),
        ("mysql --password hunter22 db", "hunter22"),
        ("Server=db;User Id=sa;Password=Pa55word;", "Pa55word"),
        ("client_secret: 'Zq7Xw2Rk9Lp4Tm8Vn3'", "Zq7Xw2Rk9"),
        ("const apiKey = \"AbC123dEf456GhI789\";", "AbC123dEf456"),
    ] {
        let out = red(r, text);
        assert!(!out.contains(gone), "{text} → {out}");
        assert!(out.contains("‹redacted:"), "{text} → {out}");
    }
}

/// Code that names secrets without holding any: not one replacement.
#[test]
fn code_about_secrets_is_left_alone() {
    let r = stock();
    for s in [
        "pub password: String,",
        "    password: Option<String>,",
        "let token = lexer.next_token();",
        "api_key: anthropic_api_key(),",
        "password = os.environ[\"DB_PASSWORD\"]",
        "password: str = Field(..., min_length=8)",
        "token = self.token",
        "DB_PASSWORD=${DB_PASSWORD}",
        "API_KEY=your-api-key-here",
        "SECRET_KEY=changeme",
        "DB_PASSWORD=",
        "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}",
        "token: ${{ secrets.NPM_TOKEN }}",
        "const token = req.headers.authorization?.split(' ')[1];",
        "if (!password) throw new Error('password required');",
        "fn verify_password(password: &str, hash: &str) -> bool {",
        "hashed_password = pwd_context.hash(password)",
        "max_tokens=4096",
        "SORT_KEY=created_at",
        "cache_key = f\"user:{user_id}\"",
        "PWD=/srv/app/src",
        "GIT_COMMIT=4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "RUN_ID=123e4567-e89b-12d3-a456-426614174000",
        "PATH=/usr/local/bin:/usr/bin",
        "RUST_LOG=deck=debug,hyper=info",
        "LANG=en_US.UTF-8",
        "the task-list-for-the-next-release is long",
        "token_type: \"bearer\"",
        "password_reset_token_expiry_hours: 24",
        "let secret = Secret::new(bytes);",
        "KeyCode::Char('k') => self.up(),",
        "\"key\": \"ctrl+shift+p\"",
    ] {
        let mut t = Tally::default();
        let out = r.redact(s, &mut t).unwrap();
        assert_eq!(out, s, "{t:?}");
    }
}

#[test]
fn a_token_cut_over_lines_is_found_joined() {
    let r = stock();
    let tok = "ghp_hViIMTloiODWAnnjzk19iMmmbApegA5uS0il";
    let text = format!("here:\n{}\n{}\nafter", &tok[..20], &tok[20..]);
    let mut t = Tally::default();
    let out = r.redact(&text, &mut t).unwrap();
    assert_eq!(out, "here:\n‹redacted:github-pat›\n‹redacted:github-pat›\nafter");
    assert_eq!(t.iter().collect::<Vec<_>>(), vec![("github-pat", 1)]);
    // A read tool's numbered lines.
    let numbered = format!("    1→{}\n    2→{}\n", &tok[..20], &tok[20..]);
    let out = red(r, &numbered);
    assert!(!out.contains(&tok[..20]) && !out.contains(&tok[20..]), "{out}");
    // Prose wrapped at a column is not joined into anything.
    let prose = "the configuration\nfile is read once\n";
    assert_eq!(red(r, prose), prose);
}

#[test]
fn a_secret_in_a_base64_blob_goes_with_the_blob() {
    let r = stock();
    let inner = "token = ghp_hViIMTloiODWAnnjzk19iMmmbApegA5uS0il\n";
    let blob = base64::engine::general_purpose::STANDARD.encode(inner);
    let out = red(r, &format!("echo {blob} | base64 -d"));
    assert_eq!(out, "echo ‹redacted:github-pat› | base64 -d");
    // A blob of plain text or of binary stays.
    let plain = base64::engine::general_purpose::STANDARD.encode("just some harmless words here");
    assert_eq!(red(r, &plain), plain);
}

#[test]
fn a_private_key_goes_whole_even_cut_short() {
    let r = stock();
    let cut = "before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc";
    assert_eq!(red(r, cut), "before\n‹redacted:private-key›");
}

#[test]
fn home_becomes_tilde_only_as_a_whole_path_at_its_start() {
    let r = stock();
    assert_eq!(red(r, "/home/alice/src/x.rs"), "~/src/x.rs");
    assert_eq!(red(r, "cd /home/alice."), "cd ~.");
    assert_eq!(red(r, "PATH=/home/alice/bin:/usr/bin"), "PATH=~/bin:/usr/bin");
    assert_eq!(red(r, "/home/alice2/x"), "/home/alice2/x");
    assert_eq!(red(r, "/x/home/alice"), "/x/home/alice");
    let mut t = Tally::default();
    let _ = r.redact("/home/alice /home/alice/b", &mut t).unwrap();
    assert_eq!(t.iter().collect::<Vec<_>>(), vec![(HOME_KIND, 2)]);
    // A home of `/root` inside a URL's authority is no path.
    let root = Redactor::new(STOCK, Some("/root")).unwrap();
    assert_eq!(
        red(&root, "mysql://root:pw@host/db and /root/x"),
        "mysql://root:‹redacted:url-password›@host/db and ~/x"
    );
    // No home, or `/`: nothing is replaced.
    let none = Redactor::new(STOCK, Some("/")).unwrap();
    assert_eq!(red(&none, "/home/alice/x"), "/home/alice/x");
}

#[test]
fn untouched_text_is_borrowed() {
    let r = stock();
    let s = "nothing secret here";
    assert!(matches!(
        r.redact(s, &mut Tally::default()).unwrap(),
        Cow::Borrowed(_)
    ));
}

#[test]
fn a_rule_that_does_not_compile_is_named() {
    let bad = "[[rules]]\nid = \"broken\"\nregex = '''(unclosed'''\nkeywords = [\"x\"]\n";
    let err = Redactor::new(&[("bad", bad), ("deck", RULES)], None).unwrap_err();
    assert!(matches!(&err, RedactError::Rule { kind, .. } if kind == "broken"), "{err}");
    assert!(Redactor::new(&[("bad", "rules = 3")], None).is_err());
    // A field gitleaks' format does not have is refused, not ignored.
    let odd = "[[rules]]\nid = \"x\"\nregex = 'x'\npatern = 'y'\n";
    assert!(Redactor::new(&[("odd", odd), ("deck", RULES)], None).is_err());
}

#[test]
fn too_long_a_string_is_refused() {
    let r = stock();
    let long = "a".repeat(MAX_SCAN + 1);
    assert_eq!(
        r.redact(&long, &mut Tally::default()).unwrap_err(),
        RedactError::TooLong(MAX_SCAN + 1)
    );
}

#[test]
fn go_classes_are_ascii() {
    assert_eq!(rules::ascii(r"\w+"), "[0-9A-Za-z_]+");
    assert_eq!(rules::ascii(r"[\w.-]"), "[0-9A-Za-z_.-]");
    assert_eq!(rules::ascii(r"[\s\S]"), r"[\t\n\f\r [:^space:]]");
    assert_eq!(rules::ascii(r"\bx[[:alnum:]]"), r"(?-u:\b)x[[:alnum:]]");
    let re = regex::Regex::new(&rules::ascii(r"^\w+$")).unwrap();
    assert!(re.is_match("abc_1") && !re.is_match("é"));
}

#[test]
fn entropy_is_in_bits_a_character() {
    assert_eq!(rules::entropy("aaaa"), 0.0);
    assert!((rules::entropy("abcd") - 2.0).abs() < 1e-9);
}

#[test]
fn a_key_block_cut_over_strings_is_redacted_to_its_end() {
    let r = stock();
    let mut carry = Carry::default();
    let mut t = Tally::default();
    let lines = [
        "key:",
        "-----BEGIN EC PRIVATE KEY-----",
        "MHcCAQEEIBody",
        "-----END EC PRIVATE KEY----- after",
        "plain",
    ];
    let out: Vec<String> = lines
        .iter()
        .map(|l| r.redact_next(l, &mut carry, &mut t).unwrap().into_owned())
        .collect();
    assert_eq!(
        out,
        [
            "key:",
            "‹redacted:private-key›",
            "‹redacted:private-key›",
            "‹redacted:private-key› after",
            "plain"
        ]
    );
}

#[test]
fn a_keyed_value_is_judged_by_its_key() {
    let r = stock();
    let mut t = Tally::default();
    assert_eq!(r.redact_keyed("password", "pw-1234", &mut t), Some(mark("password")));
    assert_eq!(
        r.redact_keyed("OPENAI_API_KEY", "q8Zr2Lw9XpT4vKm7Nc3Hs6", &mut t),
        Some(mark("secret"))
    );
    for (k, v) in [("command", "ls -la"), ("token", "abc"), ("key", "Zq7Xw2Rk9Lp4Tm8"), ("password", "")] {
        assert_eq!(r.redact_keyed(k, v, &mut t), None, "{k}");
    }
}
