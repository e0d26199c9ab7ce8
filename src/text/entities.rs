//! The character entities of XML and HTML text decoded, in one pass: the
//! five named ones of XML (`&lt;` `&gt;` `&quot;` `&apos;` `&amp;`),
//! `&nbsp;`, and every numeric reference (`&#39;`, `&#x27;`). Anything
//! else stays as written, as does a reference to no character.

/// `s` with its entities decoded, each once (`&amp;lt;` reads `&lt;`).
pub fn decode(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        // An entity is short: `&#x10FFFF;` is the longest deck decodes.
        let end = rest.char_indices().take(12).find(|&(_, c)| c == ';').map(|(i, _)| i);
        let decoded = end.and_then(|e| entity(&rest[1..e]).map(|c| (c, e)));
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character an entity's name (between `&` and `;`) stands for.
fn entity(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "amp" => Some('&'),
        "nbsp" => Some('\u{a0}'),
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse::<u32>().ok()?,
            };
            char::from_u32(code)
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn decodes_each_once() {
        assert_eq!(super::decode("a &lt;b&gt; &quot;c&#39; &amp;lt;"), "a <b> \"c' &lt;");
        assert_eq!(super::decode("plain"), "plain");
        assert_eq!(super::decode("ghp&#95;x &#x5f; &#X5F;"), "ghp_x _ _");
        assert_eq!(super::decode("a & b &bogus; &#xZZ; &#1114112;"), "a & b &bogus; &#xZZ; &#1114112;");
    }
}
