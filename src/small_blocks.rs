//! Free lists of small blocks in front of the wasm allocator.
//!
//! A one-turn session allocates about 900 small blocks and resizes about 450 (the JSON trees of
//! its frames, their member vectors, the normalized messages): the same few sizes, over and
//! over. A freed block of at most [`LARGEST`] bytes goes onto the list of its size class and is
//! handed out again for the next block of that class, without asking the allocator behind;
//! larger blocks, and any block whose alignment exceeds [`CLASS_WIDTH`], go straight through.
//! Blocks in the lists are never given back, so memory a class once held stays with that class:
//! the lists hold at most the peak of live small blocks.
//!
//! A block that grows or shrinks within its class stays where it is; any other `realloc` moves
//! the block (talc's in-place resizing is then not linked).
//!
//! It stays because whole turns are measurably faster with it than with talc alone, in every
//! `bench/run ab` run (bench/RESULTS.md, issue 40's A/B and the figures before it).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ptr;

/// The width of a size class, and the largest alignment a class block has.
const CLASS_WIDTH: usize = 16;
/// The largest block served from the lists.
const LARGEST: usize = 256;
const CLASSES: usize = LARGEST / CLASS_WIDTH;

/// A [`GlobalAlloc`] that keeps freed small blocks of `A` for reuse. Not thread-safe: it is
/// `Sync` only where there is one thread (wasm32 without atomics).
pub struct SmallBlocks<A> {
    inner: A,
    /// The head of each class's free list; a free block holds the address of the next one.
    free: [Cell<*mut u8>; CLASSES],
}

impl<A> SmallBlocks<A> {
    /// In front of `inner`, with empty lists.
    pub const fn new(inner: A) -> Self {
        SmallBlocks {
            inner,
            free: [const { Cell::new(ptr::null_mut()) }; CLASSES],
        }
    }
}

// SAFETY: wasm32 without the atomics feature has exactly one thread, so the cells are never
// touched concurrently.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<A: Sync> Sync for SmallBlocks<A> {}

/// The size class of `layout`, if its blocks come from the lists.
fn class_of(layout: Layout) -> Option<usize> {
    // A size of 0 wraps around to a class far past the last.
    let class = layout.size().wrapping_sub(1) / CLASS_WIDTH;
    (class < CLASSES && layout.align() <= CLASS_WIDTH).then_some(class)
}

/// The layout `inner` allocates a block of `class` with (every size of the class fits).
fn class_layout(class: usize) -> Layout {
    // SAFETY: a multiple of 16 up to 256 with alignment 16 is a valid layout.
    unsafe { Layout::from_size_align_unchecked((class + 1) * CLASS_WIDTH, CLASS_WIDTH) }
}

unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallBlocks<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            return self.inner.alloc(layout);
        };
        let head = self.free[class].get();
        if head.is_null() {
            return self.inner.alloc(class_layout(class));
        }
        // SAFETY: a listed block is at least 16 bytes, 16-aligned, and holds the next address.
        self.free[class].set(head.cast::<*mut u8>().read());
        head
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout) else {
            return self.inner.dealloc(block, layout);
        };
        // SAFETY: the block came from `alloc` with this layout, so it is a whole class block.
        block.cast::<*mut u8>().write(self.free[class].get());
        self.free[class].set(block);
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size`, rounded up to `layout.align()`, fits an isize.
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        if class_of(layout).is_some_and(|class| class_of(new_layout) == Some(class)) {
            // The block already has the room.
            return block;
        }
        let moved = self.alloc(new_layout);
        if !moved.is_null() {
            ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
            self.dealloc(block, layout);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn a_freed_small_block_is_reused_for_the_same_class_only() {
        let blocks = SmallBlocks::new(System);
        unsafe {
            let a = blocks.alloc(layout(24, 8));
            blocks.dealloc(a, layout(24, 8));
            // 17..=32 bytes share a class; 33 bytes is the next one.
            let other_class = blocks.alloc(layout(33, 8));
            assert_ne!(other_class, a);
            let same_class = blocks.alloc(layout(32, 16));
            assert_eq!(same_class, a, "the listed block comes back");
            let fresh = blocks.alloc(layout(20, 4));
            assert_ne!(fresh, a, "the list is empty again");
            assert_eq!(a as usize % CLASS_WIDTH, 0);
            for (block, size) in [(other_class, 33), (same_class, 32), (fresh, 20)] {
                blocks.dealloc(block, layout(size, 4));
            }
        }
    }

    #[test]
    fn lists_are_last_in_first_out_per_class() {
        let blocks = SmallBlocks::new(System);
        unsafe {
            let all: Vec<*mut u8> = (0..3).map(|_| blocks.alloc(layout(100, 8))).collect();
            for &block in &all {
                blocks.dealloc(block, layout(100, 8));
            }
            let again: Vec<*mut u8> = (0..3).map(|_| blocks.alloc(layout(97, 8))).collect();
            assert_eq!(again, all.iter().rev().copied().collect::<Vec<_>>());
            for block in again {
                blocks.dealloc(block, layout(97, 8));
            }
        }
    }

    #[test]
    fn realloc_keeps_the_bytes_across_classes_and_to_large_blocks() {
        let blocks = SmallBlocks::new(System);
        unsafe {
            let block = blocks.alloc(layout(10, 1));
            for i in 0..10 {
                block.add(i).write(i as u8 + 1);
            }
            let same = blocks.realloc(block, layout(10, 1), 16);
            assert_eq!(same, block, "10 and 16 bytes share a class");
            let bigger = blocks.realloc(same, layout(16, 1), 200);
            let large = blocks.realloc(bigger, layout(200, 1), 4096);
            let small = blocks.realloc(large, layout(4096, 1), 12);
            let bytes: Vec<u8> = (0..10).map(|i| small.add(i).read()).collect();
            assert_eq!(bytes, (1..=10).collect::<Vec<u8>>());
            blocks.dealloc(small, layout(12, 1));
        }
    }

    #[test]
    fn large_and_over_aligned_blocks_go_to_the_allocator_behind() {
        assert_eq!(class_of(layout(LARGEST, 16)), Some(CLASSES - 1));
        assert_eq!(class_of(layout(1, 1)), Some(0));
        assert_eq!(class_of(layout(LARGEST + 1, 1)), None);
        assert_eq!(class_of(layout(64, 32)), None);
        assert_eq!(class_of(layout(0, 1)), None);
        let blocks = SmallBlocks::new(System);
        unsafe {
            let wide = blocks.alloc(layout(64, 64));
            assert_eq!(wide as usize % 64, 0);
            blocks.dealloc(wide, layout(64, 64));
            assert!(blocks.free.iter().all(|head| head.get().is_null()));
        }
    }
}
