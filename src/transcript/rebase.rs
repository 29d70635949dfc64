//! `rebase()` (spec §6): order detection, mapping history messages onto rows in replace mode,
//! and moving the page's rows to the front.

use super::history::{HistoryIds, HistoryPage};
use super::json::finite;
use super::{HistoryOrder, TranscriptAccumulator};
use crate::json::{Object, Value};

impl TranscriptAccumulator {
    /// Merges a history page (spec §6). Returns true iff any row was written or reordered.
    pub fn rebase(&mut self, page: &HistoryPage<'_>, order: Option<HistoryOrder>) -> bool {
        let messages = &page.messages;
        let reverse = messages.len() >= 2
            && match order {
                Some(HistoryOrder::Desc) => true,
                Some(HistoryOrder::Asc) => false,
                None => looks_descending(messages),
            };
        let mut touched: Vec<usize> = Vec::new();
        let mut fold = |acc: &mut Self, m: &Value<'_>| {
            let Some(m) = m.as_object() else { return };
            let read = HistoryIds::read(m);
            let ids = read.ids();
            if let Some(seq) = ids.seq_id {
                acc.replay.raise(ids.run_id, seq);
            }
            if let Some(index) = acc.apply_history(m, ids) {
                touched.push(index);
            }
        };
        if reverse {
            messages.iter().rev().for_each(|m| fold(self, m));
        } else {
            messages.iter().for_each(|m| fold(self, m));
        }
        if touched.is_empty() {
            return false;
        }
        // The page's rows go first, in page order (first occurrence wins); the rest keep their order.
        let n = self.rows.len();
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut moved = false;
        for i in touched.into_iter().chain(0..n) {
            if let Some(slot) = placed.get_mut(i) {
                if !*slot {
                    *slot = true;
                    moved |= i != order.len();
                    order.push(i as u32);
                }
            }
        }
        if moved {
            self.reorder(&order);
        }
        true
    }
}

/// Spec §6 step 1: a page looks descending when its first and last `seq_id`s (when at least two
/// messages carry one), or else its first and last parseable `date`s, compare descending.
fn looks_descending(messages: &[Value<'_>]) -> bool {
    first_last_descending(messages, seq_id)
        .or_else(|| first_last_descending(messages, date_ms))
        .unwrap_or(false)
}

fn seq_id(m: &Object<'_>) -> Option<f64> {
    finite(m.get("seq_id"))
}

fn date_ms(m: &Object<'_>) -> Option<f64> {
    m.get("date").as_str().and_then(parse_date_ms)
}

/// `Some(last < first)` over the messages that have a `read` value when there are at least two,
/// else `None`. Scans from both ends, so it stops at the first and last such messages.
fn first_last_descending(
    messages: &[Value<'_>],
    read: fn(&Object<'_>) -> Option<f64>,
) -> Option<bool> {
    let value = |m: &Value<'_>| m.as_object().and_then(read);
    let mut items = messages.iter();
    let first = items.by_ref().find_map(value)?;
    let last = items.rev().find_map(value)?;
    Some(last < first)
}

/// Milliseconds since the epoch of an ISO-8601 date (`YYYY-MM-DD`, optionally followed by
/// `THH:MM[:SS[.fff…]]` and `Z` or `±HH[:]MM`). A time without an offset is read as UTC.
pub(super) fn parse_date_ms(s: &str) -> Option<f64> {
    let b = s.trim().as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let digits = b.get(range)?;
        digits.iter().try_fold(0i64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
    {
        return None;
    }
    let mut ms = days_from_civil(year, month, day) as f64 * 86_400_000.0;
    let mut i = 10;
    match b.get(i) {
        None => return Some(ms),
        Some(b'T' | b't' | b' ') => {}
        Some(_) => return None,
    }
    let (hour, minute) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
    if b.get(i + 3) != Some(&b':') || hour > 24 || minute > 59 {
        return None;
    }
    let mut secs = (hour * 3600 + minute * 60) as f64;
    i += 6;
    if b.get(i) == Some(&b':') {
        let sec = num(i + 1..i + 3)?;
        if sec > 59 {
            return None;
        }
        secs += sec as f64;
        i += 3;
        if matches!(b.get(i), Some(b'.') | Some(b',')) {
            let start = i + 1;
            i = start;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
            // Milliseconds from the first three digits (Date.parse ignores the rest).
            let mut millis = 0u32;
            for k in 0..3 {
                let digit = b
                    .get(start + k)
                    .filter(|d| d.is_ascii_digit() && start + k < i);
                millis = millis * 10 + digit.map_or(0, |d| u32::from(d - b'0'));
            }
            secs += f64::from(millis) / 1000.0;
        }
    }
    ms += secs * 1000.0;
    match b.get(i) {
        None => Some(ms),
        Some(b'Z' | b'z') if i + 1 == b.len() => Some(ms),
        Some(&sign @ (b'+' | b'-')) => {
            let oh = num(i + 1..i + 3)?;
            let colon = usize::from(b.get(i + 3) == Some(&b':'));
            let om = num(i + 3 + colon..i + 5 + colon)?;
            if i + 5 + colon != b.len() || oh > 23 || om > 59 {
                return None;
            }
            let offset = ((oh * 60 + om) * 60_000) as f64;
            Some(if sign == b'+' {
                ms - offset
            } else {
                ms + offset
            })
        }
        _ => None,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}
