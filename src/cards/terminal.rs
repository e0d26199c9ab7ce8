//! The `terminal` card: a shell command, what it printed, and how it ended.
//!
//! Owns the body below the chrome's header (which already shows the command
//! as the title): the full command, shell-highlighted, when the header cannot
//! show all of it; the one-line description; the working directory; the
//! output emulated through [`crate::text::ansi`] (stdout, then the stderr
//! section DSH inlines after a `\n[stderr]\n` marker, styled apart). How it
//! ended (`exit 3`, a signal) is the header's outcome, said once. Long lines
//! are hard-wrapped with a `↪` continuation mark.
//! The preview keeps the tail: the end of the output matters most.
//!
//! Must not: name a tool, or let a byte of the output reach the screen except
//! through the emulator (cell text + styles) or the sanitizer.

use ratatui::style::Style;

use super::{Ctx, Rows};
use crate::text::highlight::Highlighter;
use crate::text::{Line, Span, ansi, sanitize, wrap};
use crate::theme::Role;
use crate::wire::view::TerminalView;

/// The marker DSH puts between stdout and stderr.
const STDERR_MARKER: &str = "\n[stderr]\n";
/// The label line of the stderr section.
const STDERR_LABEL: &str = "[stderr]";
/// Mark at the start of a hard-wrapped continuation row.
const CONTINUATION: &str = "↪";
/// Columns the chrome's header spends around the title of a settled card,
/// besides the outcome: status and kind glyphs (4), two separators (4) and a
/// duration (up to 6, e.g. `3m04s`).
const HEADER_OVERHEAD: usize = 14;
/// The same for a card still running: glyphs (4), a separator (2) and
/// `running 12m04s` (up to 15).
const HEADER_OVERHEAD_RUNNING: usize = 21;

pub fn outcome(v: &TerminalView) -> Option<String> {
    match (&v.signal, v.exit_code) {
        (Some(s), _) => Some(s.clone()),
        (None, Some(c)) => Some(format!("exit {c}")),
        _ => None,
    }
}

/// The body, kept whole (see [`rows`]).
#[cfg(any(test, feature = "internals"))]
pub fn body(v: &TerminalView, ctx: &Ctx) -> super::Body {
    super::Body::collect(Some(super::Keep::Tail), |out| rows(v, ctx, out))
}

/// The body row by row: the command (when the header cuts it), the
/// description and the cwd pinned, then the output, then the pill.
pub fn rows(v: &TerminalView, ctx: &Ctx, out: &mut Rows) {
    let theme = ctx.theme;
    let width = ctx.width.max(1);
    if let Some(cmd) = v
        .title
        .as_deref()
        .filter(|c| command_needs_body(c, v, width))
    {
        let mut lines = command_lines(cmd, ctx);
        // A preview shows the head of a long command (a heredoc) and says
        // how many rows it left out; the full card shows it whole.
        let cap = ctx.preview_rows.max(3);
        if ctx.density == super::Density::Preview && lines.len() > cap + 1 {
            let hidden = lines.len() - cap;
            lines.truncate(cap);
            lines.push(Line::styled(
                format!("  {} of the command", crate::text::rows::more_lines(hidden).trim_end()),
                theme.style(Role::Muted),
            ));
        }
        out.pin_all(lines);
    }
    if let Some(d) = v.description.as_deref().filter(|d| !d.trim().is_empty()) {
        let l = Line::styled(sanitize::inline(d), theme.style(Role::Muted));
        out.pin_all(wrap::words(&l, width));
    }
    // Where the command ran, unless that is the session's own directory.
    if let Some(cwd) = v.cwd.as_deref().filter(|c| !c.is_empty())
        && ctx.path(cwd.trim_end_matches('/')) != "."
    {
        let l = Line::styled("in ", theme.style(Role::Muted))
            .with(sanitize::inline(&ctx.path(cwd)), theme.style(Role::Path));
        out.pin_all(wrap::words(&l, width));
    }
    if let Some(output) = v.output.as_deref() {
        let (stdout, stderr) = split_stderr(output);
        let mark = theme.style(Role::Muted);
        ansi::lines_into(stdout, theme, theme.style(Role::Text), &mut |l| {
            hard_wrap_into(&l, width, mark, &mut |r| out.push(r))
        });
        if let Some(err) = stderr {
            let style = theme.style(Role::Stderr);
            out.extend(wrap::chars(&Line::styled(STDERR_LABEL, style), width));
            ansi::lines_into(err, theme, style, &mut |l| {
                hard_wrap_into(&l, width, mark, &mut |r| out.push(r))
            });
        }
    }
}

/// Whether the body repeats the command: when it spans lines, or when the
/// header (title room ≈ the full card width minus glyphs, outcome and
/// duration) would cut it.
fn command_needs_body(cmd: &str, v: &TerminalView, body_width: usize) -> bool {
    if cmd.trim().is_empty() {
        return false;
    }
    if cmd.trim_end_matches(['\n', '\r']).contains(['\n', '\r']) {
        return true;
    }
    let card_width = body_width + super::chrome::GUTTER_WIDTH;
    let overhead = match outcome(v) {
        Some(o) => HEADER_OVERHEAD + o.chars().count(),
        None => HEADER_OVERHEAD_RUNNING,
    };
    let room = card_width.saturating_sub(overhead);
    unicode_width::UnicodeWidthStr::width(sanitize::inline(cmd).as_str()) > room
}

/// `$ command`, highlighted as shell, one row per command line, hard-wrapped
/// under a `$ ` / `  ` prefix.
fn command_lines(cmd: &str, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let colour = if ctx.plain_code { 0 } else { usize::MAX };
    let mut h = Highlighter::new(Some("sh"), theme, theme.style(Role::Command)).limit(colour);
    let prompt = [Span::new("$ ", theme.style(Role::Muted))];
    let indent = [Span::plain("  ")];
    let mut out = Vec::new();
    let src = cmd.trim_end_matches(['\n', '\r']);
    for (i, raw) in src.split('\n').enumerate() {
        let line = h.line(raw.strip_suffix('\r').unwrap_or(raw));
        let first: &[Span] = if i == 0 { &prompt } else { &indent };
        out.extend(wrap::with_gutter(line, ctx.width, first, &indent, true));
    }
    out
}

/// Split DSH's combined output at its first stderr marker. An output that
/// starts with the label has an empty stdout.
fn split_stderr(output: &str) -> (&str, Option<&str>) {
    if let Some(rest) = output.strip_prefix(&STDERR_MARKER[1..]) {
        return ("", Some(rest));
    }
    match output.find(STDERR_MARKER) {
        Some(i) => (&output[..i], Some(&output[i + STDERR_MARKER.len()..])),
        None => (output, None),
    }
}

/// Hard-wrap a line of output: the first row uses the full width; each
/// continuation row starts with a muted `↪` (the rest of the line wrapped
/// again one column narrower). Too narrow for a mark: plain hard wrap. Rows
/// go to `f` as they are made: a line of megabytes is never held as rows.
fn hard_wrap_into(line: &Line, width: usize, mark: Style, f: &mut dyn FnMut(Line)) {
    if line.width() <= width {
        return f(line.clone());
    }
    if width < 4 {
        return wrap::chars_into(line, width, f);
    }
    let cont = [Span::new(CONTINUATION, mark)];
    let mut rest = wrap::CharWrap::new(width - 1);
    let mut first = true;
    wrap::chars_into(line, width, &mut |row| {
        if std::mem::replace(&mut first, false) {
            return f(row);
        }
        for s in &row.spans {
            rest.span(s);
        }
        for r in rest.rows.drain(..) {
            f(r.prefixed(&cont).continued());
        }
    });
    for r in rest.finish() {
        f(r.prefixed(&cont).continued());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Density;
    use crate::theme::Theme;

    fn view(
        title: &str,
        output: Option<&str>,
        exit: Option<i64>,
        signal: Option<&str>,
    ) -> TerminalView {
        TerminalView {
            title: Some(title.into()),
            description: Some("Describe it".into()),
            cwd: None,
            output: output.map(str::to_string),
            exit_code: exit,
            signal: signal.map(str::to_string),
        }
    }

    fn texts(b: &crate::cards::Body) -> Vec<String> {
        b.lines.iter().map(Line::text).collect()
    }

    #[test]
    fn outcome_names_exit_or_signal() {
        assert_eq!(
            outcome(&view("x", None, Some(3), None)).as_deref(),
            Some("exit 3")
        );
        assert_eq!(
            outcome(&view("x", None, None, Some("SIGTERM"))).as_deref(),
            Some("SIGTERM")
        );
        assert_eq!(outcome(&view("x", None, None, None)), None);
    }

    #[test]
    fn stderr_is_split_labelled_and_styled() {
        let theme = Theme::dark();
        let ctx = Ctx::new(60, &theme, Density::Full);
        let v = view(
            "ls",
            Some("def add(a, b):\n    return a + b\n\n[stderr]\ndone\n"),
            Some(0),
            None,
        );
        let b = body(&v, &ctx);
        assert_eq!(
            texts(&b),
            vec![
                "Describe it",
                "def add(a, b):",
                "    return a + b",
                "[stderr]",
                "done",
            ]
        );
        let stderr = theme.style(Role::Stderr);
        assert_eq!(b.lines[3].spans[0].style, stderr);
        assert_eq!(b.lines[4].spans[0].style, stderr);
        assert_ne!(b.lines[2].spans[0].style, stderr);
        assert_eq!(b.lines.len(), 5, "the exit is the header's, not the body's");
        assert_eq!(b.keep, Some(crate::cards::Keep::Tail));
        // Only stderr.
        assert_eq!(split_stderr("[stderr]\nboom"), ("", Some("boom")));
        assert_eq!(split_stderr("plain"), ("plain", None));
    }

    #[test]
    fn how_it_ended_is_the_outcome_not_a_body_row() {
        let theme = Theme::dark();
        let ctx = Ctx::new(40, &theme, Density::Full);
        for (exit, signal, text) in [
            (Some(3), None, "exit 3"),
            (None, Some("SIGTERM"), "SIGTERM"),
        ] {
            let v = view("sleep 30", Some("(no output)"), exit, signal);
            assert_eq!(outcome(&v).as_deref(), Some(text));
            let b = body(&v, &ctx);
            assert_eq!(texts(&b), vec!["Describe it", "(no output)"]);
        }
        // Pending: no pill.
        let b = body(&view("sleep 30", None, None, None), &ctx);
        assert_eq!(texts(&b), vec!["Describe it"]);
    }

    #[test]
    fn output_is_emulated_not_sanitized_raw() {
        let theme = Theme::dark();
        let ctx = Ctx::new(40, &theme, Density::Full);
        let b = body(
            &view(
                "p",
                Some("\u{1b}[31mred\u{1b}[0m\n10%\r100%\n"),
                Some(3),
                None,
            ),
            &ctx,
        );
        assert_eq!(texts(&b)[1..3], ["red".to_string(), "100%".to_string()]);
        assert_eq!(
            b.lines[1].spans[0].style.fg,
            Some(ratatui::style::Color::Red)
        );
    }

    /// A heredoc of 45 rows: a preview shows its head and how much is left
    /// out; the full card shows it whole.
    #[test]
    fn a_long_command_is_capped_in_a_preview() {
        let theme = Theme::dark();
        let cmd = format!(
            "cat > x.txt <<'EOF'\n{}\nEOF",
            (0..45).map(|i| format!("row {i}")).collect::<Vec<_>>().join("\n")
        );
        let v = view(&cmd, Some("ok"), Some(0), None);
        let preview = Ctx::new(80, &theme, Density::Preview);
        let t = texts(&body(&v, &preview));
        let command: Vec<&String> = t.iter().take_while(|l| *l != "Describe it").collect();
        assert!(command.len() <= preview.preview_rows.max(3) + 1, "{t:?}");
        assert_eq!(command.last().unwrap().trim(), "… 35 more lines of the command");
        let full = Ctx::new(80, &theme, Density::Full);
        let t = texts(&body(&v, &full));
        assert_eq!(t.iter().take_while(|l| *l != "Describe it").count(), 47);
    }

    #[test]
    fn command_shown_only_when_the_header_would_cut_it() {
        let theme = Theme::dark();
        let ctx = Ctx::new(40, &theme, Density::Full);
        let short = body(&view("ls -la", Some("x"), Some(0), None), &ctx);
        assert!(!texts(&short).iter().any(|t| t.starts_with("$ ")));
        let long_cmd = "printf 'a very long command line that cannot fit'; exit 3";
        let long = body(&view(long_cmd, Some("x"), Some(3), None), &ctx);
        let t = texts(&long);
        assert!(t[0].starts_with("$ printf"), "{t:?}");
        // The whole command is there, across wrapped rows.
        let joined: String = t
            .iter()
            .take_while(|l| !l.starts_with("Describe"))
            .map(|l| &l[2..])
            .collect();
        assert_eq!(joined, long_cmd);
        let multi = body(
            &view(
                "for i in 1 2; do\n  echo $i\ndone",
                Some("1\n2"),
                Some(0),
                None,
            ),
            &ctx,
        );
        assert_eq!(
            texts(&multi)[..3],
            ["$ for i in 1 2; do", "    echo $i", "  done"]
        );
        // Highlighted as shell: more than one style on the first row.
        assert!(multi.lines[0].spans.len() > 2);
    }

    #[test]
    fn cwd_uses_the_path_role() {
        let theme = Theme::dark();
        let ctx = Ctx::new(40, &theme, Density::Full);
        let mut v = view("ls", Some(""), Some(0), None);
        v.cwd = Some("/workspace/demo".into());
        let b = body(&v, &ctx);
        let l = b
            .lines
            .iter()
            .find(|l| l.text() == "in /workspace/demo")
            .unwrap();
        assert_eq!(l.spans[1].style, theme.style(Role::Path));
    }

    #[test]
    fn long_lines_wrap_with_a_mark_and_every_width_fits() {
        let theme = Theme::dark();
        let out = format!(
            "{}\n日本語日本語日本語\n\u{1b}[K tail\n[stderr]\n{}",
            "x".repeat(100),
            "e".repeat(50)
        );
        let v = TerminalView {
            title: Some("a command that is long enough to wrap somewhere\nsecond line".into()),
            description: Some("a description with words".into()),
            cwd: Some("/a/very/long/working/directory/path".into()),
            output: Some(out),
            exit_code: Some(-1),
            signal: None,
        };
        for w in 1..=200 {
            let ctx = Ctx::new(w, &theme, Density::Full);
            let b = body(&v, &ctx);
            for l in &b.lines {
                assert!(l.width() <= w, "width {w}: {:?}", l.text());
                assert!(sanitize::is_clean(&l.text()));
            }
        }
        let ctx = Ctx::new(20, &theme, Density::Full);
        let t = texts(&body(&v, &ctx));
        let first = t.iter().position(|l| l == &"x".repeat(20)).unwrap();
        assert_eq!(t[first + 1], format!("↪{}", "x".repeat(19)));
    }
}
