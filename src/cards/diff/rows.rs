//! A hunk as rows: its ops merged into context and changed blocks, a
//! changed block's i-th old and new lines paired for word emphasis, then
//! laid in rows (pairs on one row side by side, old before new unified).
//! `layout.rs` paints the rows (and highlights each block from the side it
//! reads).

use std::ops::Range;

use similar::DiffOp;

use super::model::{FileModel, emphasis};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Context,
    Added,
    Removed,
}

impl Kind {
    pub(super) fn marker(self) -> &'static str {
        match self {
            Kind::Context => " ",
            Kind::Added => "+",
            Kind::Removed => "-",
        }
    }
}

/// One side of a row: which line, how it changed, what to emphasise.
#[derive(Debug, Clone)]
pub(super) struct Cell {
    pub(super) kind: Kind,
    /// 0-based index into the side's lines.
    pub(super) index: usize,
    pub(super) emph: Vec<Range<usize>>,
}

/// A row of the diff: unified rows fill one side (context fills both).
#[derive(Debug, Clone)]
pub(super) struct Row {
    pub(super) old: Option<Cell>,
    pub(super) new: Option<Cell>,
}

/// A stretch of a hunk: context lines, or a changed block (a run of
/// deletes, inserts and replaces) with the lines it takes from each side.
pub(super) enum Block {
    Same {
        old: Range<usize>,
        new: Range<usize>,
    },
    Changed {
        old: Range<usize>,
        new: Range<usize>,
    },
}

pub(super) fn blocks(hunk: &[DiffOp]) -> impl Iterator<Item = Block> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let op = hunk.get(i)?;
        i += 1;
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            return Some(Block::Same {
                old: old_index..old_index + len,
                new: new_index..new_index + len,
            });
        }
        // Merge a run of non-equal ops into one changed block.
        let (mut old, mut new) = (op.old_range(), op.new_range());
        while let Some(next) = hunk.get(i).filter(|o| !matches!(o, DiffOp::Equal { .. })) {
            old.end = old.end.max(next.old_range().end);
            new.end = new.end.max(next.new_range().end);
            i += 1;
        }
        Some(Block::Changed { old, new })
    })
}

/// The rows of a hunk. Changed blocks pair their i-th old and new lines for
/// word emphasis; `paired` puts a pair on one row (side by side), otherwise
/// all old rows come before all new ones.
pub(super) fn rows(model: &FileModel, hunk: &[DiffOp], paired: bool, emphasise: bool) -> Vec<Row> {
    let cell = |kind, index| Cell {
        kind,
        index,
        emph: Vec::new(),
    };
    let mut out = Vec::new();
    for block in blocks(hunk) {
        let (old_r, new_r) = match block {
            Block::Same { old, new } => {
                out.extend(old.zip(new).map(|(o, n)| Row {
                    old: Some(cell(Kind::Context, o)),
                    new: Some(cell(Kind::Context, n)),
                }));
                continue;
            }
            Block::Changed { old, new } => (old, new),
        };
        let mut olds: Vec<Cell> = old_r.map(|i| cell(Kind::Removed, i)).collect();
        let mut news: Vec<Cell> = new_r.map(|i| cell(Kind::Added, i)).collect();
        for (o, n) in olds
            .iter_mut()
            .zip(news.iter_mut())
            .take_while(|_| emphasise)
        {
            let (a, b) = (model.old.get(o.index), model.new.get(n.index));
            if let (Some(a), Some(b)) = (a, b)
                && let Some(e) = emphasis(a, b)
            {
                o.emph = e.old;
                n.emph = e.new;
            }
        }
        if paired {
            let n = olds.len().max(news.len());
            let mut olds = olds.into_iter();
            let mut news = news.into_iter();
            for _ in 0..n {
                out.push(Row {
                    old: olds.next(),
                    new: news.next(),
                });
            }
        } else {
            out.extend(olds.into_iter().map(|c| Row {
                old: Some(c),
                new: None,
            }));
            out.extend(news.into_iter().map(|c| Row {
                old: None,
                new: Some(c),
            }));
        }
    }
    out
}
