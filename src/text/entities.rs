//! The character entities of XML and HTML text decoded: the five named
//! ones and `&#39;`/`&#x27;` (what deck's HTML export writes for `'`).
//! Nothing else: numeric references beyond those stay as written.

/// `s` with `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#39;`, `&#x27;` and
/// `&amp;` decoded (`&amp;` last, so `&amp;lt;` reads `&lt;`).
pub fn decode(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    #[test]
    fn decodes_each_once() {
        assert_eq!(super::decode("a &lt;b&gt; &quot;c&#39; &amp;lt;"), "a <b> \"c' &lt;");
        assert_eq!(super::decode("plain"), "plain");
    }
}
