//! The alias hash table: lookups, updates and growth.

use crate::transcript::index_table::IndexTable;

#[test]
fn empty_table_finds_nothing() {
    let table = IndexTable::default();
    assert_eq!(table.get(""), None);
    assert_eq!(table.get("a"), None);
}

#[test]
fn keeps_every_key_through_growth() {
    let mut table = IndexTable::default();
    for i in 0..5_000u32 {
        table.set(&format!("message-{i}-otid"), i);
    }
    table.set("", 7);
    for i in 0..5_000u32 {
        assert_eq!(table.get(&format!("message-{i}-otid")), Some(i));
    }
    assert_eq!(table.get(""), Some(7));
    assert_eq!(table.get("message-5000-otid"), None);
    assert_eq!(table.get("message-1"), None);
}

#[test]
fn set_replaces_and_remap_rewrites_values() {
    let mut table = IndexTable::default();
    table.set("a", 0);
    table.set("b", 1);
    table.set("a", 2);
    assert_eq!((table.get("a"), table.get("b")), (Some(2), Some(1)));
    table.remap(&[5, 6, 4]);
    assert_eq!((table.get("a"), table.get("b")), (Some(4), Some(6)));
}
