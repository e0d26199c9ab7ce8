//! What the first bytes of an input say before it is read as a log: not
//! text at all (binary), or text with a JSON object line in it.

/// The first bytes of an input are not text: a NUL, or more than one in
/// ten bytes a control character no log holds (tab, newlines, form feed and
/// ESC aside) or not UTF-8.
pub(super) fn looks_binary(head: &[u8]) -> bool {
    let head = &head[..head.len().min(8192)];
    if head.contains(&0) {
        return true;
    }
    let text = String::from_utf8_lossy(head);
    let odd = text
        .chars()
        .filter(|&c| {
            c == char::REPLACEMENT_CHARACTER
                || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1b'))
        })
        .count();
    odd * 10 > text.chars().count()
}

/// Whether one of the complete lines of `head` is a JSON object (what every
/// log format deck reads is made of).
pub(super) fn any_json_object_line(head: &[u8]) -> bool {
    let complete = memchr::memrchr(b'\n', head).map_or(&[][..], |at| &head[..at]);
    complete.split(|&b| b == b'\n').any(|line| {
        let line = line.trim_ascii();
        line.first() == Some(&b'{') && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
    })
}
