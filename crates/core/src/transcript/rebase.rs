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
        let mut touched: Vec<u32> = Vec::new();
        let mut fold = |acc: &mut Self, m: &Value<'_>| {
            let Some(m) = m.as_object() else { return };
            let read = HistoryIds::read(m);
            let ids = read.ids();
            if let Some(seq) = ids.seq_id {
                acc.replay.raise(ids.run_id, seq);
            }
            if let Some(index) = acc.apply_history(m, ids) {
                touched.push(index as u32);
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
        // The page's rows go first, in page order (first occurrence wins); the rest keep their
        // order: every row is listed after the page's ones and placed at its first occurrence.
        let n = self.rows.len();
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut moved = false;
        touched.extend(0..n as u32);
        for &i in &touched {
            if let Some(slot) = placed.get_mut(i as usize) {
                if !*slot {
                    *slot = true;
                    moved |= i as usize != order.len();
                    order.push(i);
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
    let mut c = Cursor(s.trim().as_bytes());
    let year = c.number(4, 0, 9999)?;
    c.eat(b"-")?;
    let month = c.number(2, 1, 12)?;
    c.eat(b"-")?;
    let day = c.number(2, 1, 31)?;
    let mut ms = days_from_civil(year, month, day) as f64 * 86_400_000.0;
    if c.0.is_empty() {
        return Some(ms);
    }
    c.eat(b"Tt ")?;
    let hour = c.number(2, 0, 24)?;
    c.eat(b":")?;
    let minute = c.number(2, 0, 59)?;
    let mut secs = (hour * 3600 + minute * 60) as f64;
    if c.eat(b":").is_some() {
        secs += c.number(2, 0, 59)? as f64;
        if c.eat(b".,").is_some() {
            // Milliseconds from the first three digits (Date.parse ignores the rest).
            let mut millis = 0u32;
            let mut digits = 0;
            while let Some(d) = c.digit() {
                if digits < 3 {
                    millis = millis * 10 + d;
                }
                digits += 1;
            }
            if digits == 0 {
                return None;
            }
            for _ in digits..3 {
                millis *= 10;
            }
            secs += f64::from(millis) / 1000.0;
        }
    }
    ms += secs * 1000.0;
    let offset = match c.eat(b"Zz+-") {
        None | Some(b'Z' | b'z') => 0.0,
        Some(sign) => {
            let hours = c.number(2, 0, 23)?;
            c.eat(b":");
            let minutes = c.number(2, 0, 59)?;
            let offset = ((hours * 60 + minutes) * 60_000) as f64;
            if sign == b'+' {
                offset
            } else {
                -offset
            }
        }
    };
    c.0.is_empty().then_some(ms - offset)
}

/// The unread rest of a date string.
struct Cursor<'b>(&'b [u8]);

impl Cursor<'_> {
    /// Reads one byte of `set`.
    fn eat(&mut self, set: &[u8]) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        set.contains(&first).then(|| {
            self.0 = rest;
            first
        })
    }

    /// Reads one ASCII digit.
    fn digit(&mut self) -> Option<u32> {
        let (&first, rest) = self.0.split_first()?;
        first.is_ascii_digit().then(|| {
            self.0 = rest;
            u32::from(first - b'0')
        })
    }

    /// Reads exactly `len` digits as a number within `min..=max`.
    fn number(&mut self, len: usize, min: i64, max: i64) -> Option<i64> {
        let mut n = 0i64;
        for _ in 0..len {
            n = n * 10 + i64::from(self.digit()?);
        }
        (min..=max).contains(&n).then_some(n)
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
