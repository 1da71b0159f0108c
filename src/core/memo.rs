//! The last value read from a file's text, kept by the text's length and hash: one
//! configuration's checks read a file's shape several times (its validation, its cost,
//! the memory check), and reading a 50 MB file takes a second where hashing it takes
//! 30 ms.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// A text's length and hash, and what was read from it.
type Kept = (usize, u64, Box<dyn Any>);

thread_local! {
    /// By kind of reading.
    static LAST: RefCell<HashMap<&'static str, Kept>> = RefCell::new(HashMap::new());
}

/// `read(text)`, or what it gave for the same text the last time `kind` was read.
pub fn read_once<T: Clone + 'static>(kind: &'static str, text: &str, read: impl FnOnce(&str) -> T) -> T {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let key = (text.len(), hasher.finish());
    let kept = LAST.with_borrow(|last| last.get(kind).filter(|(n, h, _)| (*n, *h) == key).and_then(|(_, _, value)| value.downcast_ref::<T>().cloned()));
    if let Some(value) = kept {
        return value;
    }
    let value = read(text);
    LAST.with_borrow_mut(|last| last.insert(kind, (key.0, key.1, Box::new(value.clone()))));
    value
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::read_once;
    use std::cell::Cell;

    #[test]
    fn a_text_is_read_once_until_another_comes() {
        let reads = Cell::new(0);
        let count = |text: &str| {
            reads.set(reads.get() + 1);
            text.lines().count()
        };
        assert_eq!(read_once("lines", "a\nb\n", count), 2);
        assert_eq!(read_once("lines", "a\nb\n", count), 2);
        assert_eq!(reads.get(), 1, "the same text: read once");
        assert_eq!(read_once("lines", "a\nc\n", count), 2);
        assert_eq!(reads.get(), 2, "another text of the same length: read again");
        assert_eq!(read_once("other", "a\nc\n", |t: &str| t.len()), 4, "each kind its own");
        assert_eq!(read_once("lines", "a\nc\n", count), 2);
        assert_eq!(reads.get(), 2);
    }
}
