use super::*;

fn stock() -> Redactor {
    Redactor::new(RULES, Some("/home/alice")).unwrap()
}

fn red(r: &Redactor, s: &str) -> String {
    r.redact(s, &mut Tally::default()).unwrap().into_owned()
}

/// A test per rule: each rule's sample is replaced by `‹redacted:KIND›`
/// and its secret is gone, in a sentence, a JSON string and an assignment.
#[test]
fn every_rule_replaces_its_sample() {
    let r = stock();
    assert!(r.rules().len() >= 16, "{} rules", r.rules().len());
    for rule in r.rules() {
        for text in [
            rule.sample().to_string(),
            format!("see {} here", rule.sample()),
            format!("{{\"x\": \"{}\"}}", rule.sample()),
        ] {
            let mut tally = Tally::default();
            let out = r.redact(&text, &mut tally).unwrap();
            let mark = format!("‹redacted:{}›", rule.kind());
            assert!(out.contains(&mark), "{}: {text:?} → {out:?}", rule.kind());
            assert!(!out.contains(rule.secret()), "{}: {out:?}", rule.kind());
            assert!(
                tally.iter().any(|(k, _)| k == rule.kind()),
                "{}",
                rule.kind()
            );
        }
    }
}

#[test]
fn kinds_are_unique() {
    let r = stock();
    let mut kinds: Vec<&str> = r.rules().iter().map(Rule::kind).collect();
    kinds.sort_unstable();
    let n = kinds.len();
    kinds.dedup();
    assert_eq!(kinds.len(), n);
}

#[test]
fn the_keyword_stays_visible() {
    let r = stock();
    assert_eq!(
        red(&r, "Authorization: Bearer abc.def-123"),
        "Authorization: Bearer ‹redacted:bearer›"
    );
    assert_eq!(
        red(&r, "curl https://bob:s3cr3t@example.com/x"),
        "curl https://bob:‹redacted:url-password›@example.com/x"
    );
    assert_eq!(
        red(&r, r#"{"password": "two words"}"#),
        r#"{"password": "‹redacted:password›"}"#
    );
    assert_eq!(red(&r, "token=abc123&x=1"), "token=‹redacted:password›&x=1");
    // A value already replaced is not replaced again, even in a link.
    let link = "https://bob:%E2%80%B9redacted:url-password%E2%80%BA@example.com/";
    assert_eq!(red(&r, link), link);
    assert_eq!(
        red(&r, "api_key=sk-ant-api03-abcdefghijklmnopqrstuvwx"),
        "api_key=‹redacted:anthropic›"
    );
}

#[test]
fn a_private_key_goes_whole_even_cut_short() {
    let r = stock();
    let cut = "before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc";
    assert_eq!(red(&r, cut), "before\n‹redacted:private-key›");
}

#[test]
fn ordinary_assignments_and_ids_stay() {
    let r = stock();
    for s in [
        "GIT_COMMIT=4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "RUN_ID=123e4567-e89b-12d3-a456-426614174000",
        "PATH=/usr/local/bin:/usr/bin",
        "RUST_LOG=deck=debug,hyper=info",
        "max_tokens=4096",
        "the task-list-for-the-next-release is long",
        "LANG=en_US.UTF-8",
    ] {
        assert_eq!(red(&r, s), s);
    }
}

#[test]
fn home_becomes_tilde_only_as_a_whole_path() {
    let r = stock();
    assert_eq!(red(&r, "/home/alice/src/x.rs"), "~/src/x.rs");
    assert_eq!(red(&r, "cd /home/alice."), "cd ~.");
    assert_eq!(red(&r, "file:///home/alice/a"), "file://~/a");
    assert_eq!(red(&r, "/home/alice2/x"), "/home/alice2/x");
    assert_eq!(red(&r, "/x/home/alice"), "/x/home/alice");
    let mut t = Tally::default();
    let _ = r.redact("/home/alice /home/alice/b", &mut t).unwrap();
    assert_eq!(t.iter().collect::<Vec<_>>(), vec![(HOME_KIND, 2)]);
    // No home, or `/`: nothing is replaced.
    let none = Redactor::new(RULES, Some("/")).unwrap();
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
    let bad = "[[rule]]\nkind = \"broken\"\npattern = '''(unclosed'''\nsample = \"x\"\n";
    let err = Redactor::new(bad, None).unwrap_err();
    assert!(matches!(&err, RedactError::Rule { kind, .. } if kind == "broken"), "{err}");
    assert!(Redactor::new("rule = 3", None).is_err());
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
fn entropy_is_in_bits_a_character() {
    assert_eq!(entropy("aaaa"), 0.0);
    assert!((entropy("abcd") - 2.0).abs() < 1e-9);
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
