//! A first-in first-out queue for the session's outputs (effects and `SDKMessage`s).
//!
//! Both queues are drained completely by the JS binding after every call, so a vector with a
//! read cursor is enough: taken slots are reclaimed when the queue runs empty. That is less
//! WebAssembly than a `VecDeque` per element type.

/// A FIFO queue: pushed at the back, taken from the front.
#[derive(Debug)]
pub struct Fifo<T> {
    items: Vec<Option<T>>,
    /// Index of the next item to take; everything before it has been taken.
    head: usize,
}

impl<T> Default for Fifo<T> {
    fn default() -> Self {
        Fifo {
            items: Vec::new(),
            head: 0,
        }
    }
}

impl<T> Fifo<T> {
    /// Appends `item`.
    pub fn push_back(&mut self, item: T) {
        self.items.push(Some(item));
    }

    /// Takes the oldest item.
    pub fn pop_front(&mut self) -> Option<T> {
        let item = self.items.get_mut(self.head)?.take();
        self.head += 1;
        if self.head == self.items.len() {
            self.items.clear();
            self.head = 0;
        }
        item
    }

    /// How many items are waiting.
    pub fn len(&self) -> usize {
        self.items.len() - self.head
    }

    /// True when nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::Fifo;

    #[test]
    fn keeps_order_across_partial_drains() {
        let mut queue = Fifo::default();
        let mut expected = 0;
        for round in 0..50 {
            for i in 0..5 {
                queue.push_back(round * 5 + i);
            }
            for _ in 0..3 {
                assert_eq!(queue.pop_front(), Some(expected));
                expected += 1;
            }
        }
        assert_eq!(queue.len(), 100);
        while let Some(item) = queue.pop_front() {
            assert_eq!(item, expected);
            expected += 1;
        }
        assert_eq!(expected, 250);
        assert!(queue.is_empty());
    }
}
