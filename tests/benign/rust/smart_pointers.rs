// Box (recursive types), Rc/Weak (shared ownership, parent links), RefCell/Cell (interior mutability),
// Arc/Mutex/RwLock across threads, Cow, and Drop order.
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::sync::{Arc, Mutex, RwLock};
use std::thread;

#[derive(Debug)]
enum List {
    Cons(i32, Box<List>),
    Nil,
}
use List::{Cons, Nil};

fn sum(l: &List) -> i32 {
    match l {
        Cons(v, rest) => v + sum(rest),
        Nil => 0,
    }
}

#[derive(Debug)]
struct Node {
    val: i32,
    parent: RefCell<Weak<Node>>,
    children: RefCell<Vec<Rc<Node>>>,
}

struct Noisy<'a> {
    name: &'static str,
    log: &'a RefCell<Vec<&'static str>>,
}
impl Drop for Noisy<'_> {
    fn drop(&mut self) {
        self.log.borrow_mut().push(self.name);
    }
}

fn normalize(s: &str) -> Cow<str> {
    if s.contains(' ') {
        Cow::Owned(s.replace(' ', "_"))
    } else {
        Cow::Borrowed(s)
    }
}

fn main() {
    let list = Cons(1, Box::new(Cons(2, Box::new(Cons(3, Box::new(Nil))))));
    assert_eq!(sum(&list), 6);
    let b: Box<[u8]> = vec![1, 2, 3].into_boxed_slice();
    assert_eq!(b.len(), 3);
    let big = Box::new([0u64; 100_000]);
    assert_eq!(big.len(), 100_000);

    let leaf = Rc::new(Node { val: 3, parent: RefCell::new(Weak::new()), children: RefCell::new(vec![]) });
    assert!(leaf.parent.borrow().upgrade().is_none());
    {
        let branch = Rc::new(Node { val: 5, parent: RefCell::new(Weak::new()), children: RefCell::new(vec![Rc::clone(&leaf)]) });
        *leaf.parent.borrow_mut() = Rc::downgrade(&branch);
        assert_eq!(leaf.parent.borrow().upgrade().map(|p| p.val), Some(5));
        assert_eq!(Rc::strong_count(&leaf), 2);
        assert_eq!(Rc::weak_count(&branch), 1);
        assert_eq!(branch.children.borrow()[0].val, 3);
    }
    assert!(leaf.parent.borrow().upgrade().is_none());
    assert_eq!(Rc::strong_count(&leaf), 1);

    let shared = Rc::new(RefCell::new(vec![1]));
    let a = Rc::clone(&shared);
    a.borrow_mut().push(2);
    shared.borrow_mut().push(3);
    assert_eq!(*shared.borrow(), vec![1, 2, 3]);
    {
        let _r1 = shared.borrow();
        assert!(shared.try_borrow_mut().is_err());
    }
    assert!(shared.try_borrow_mut().is_ok());
    let c = Cell::new(5);
    c.set(c.get() + 1);
    assert_eq!(c.replace(0), 6);
    let mut rc = Rc::new(10);
    *Rc::make_mut(&mut rc) += 1;
    assert_eq!(*rc, 11);
    assert_eq!(Rc::try_unwrap(rc), Ok(11));

    let counter = Arc::new(Mutex::new(0u64));
    let table = Arc::new(RwLock::new(vec![0u32; 8]));
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let counter = Arc::clone(&counter);
            let table = Arc::clone(&table);
            thread::spawn(move || {
                for _ in 0..1000 {
                    *counter.lock().unwrap() += 1;
                }
                table.write().unwrap()[i] = i as u32;
                let r = table.read().unwrap();
                r.len()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 8);
    }
    assert_eq!(*counter.lock().unwrap(), 8000);
    assert_eq!(table.read().unwrap().iter().sum::<u32>(), 28);
    assert_eq!(Arc::strong_count(&counter), 1);
    let m = Arc::try_unwrap(counter).unwrap().into_inner().unwrap();
    assert_eq!(m, 8000);

    let log = RefCell::new(Vec::new());
    {
        let _a = Noisy { name: "a", log: &log };
        let b = Noisy { name: "b", log: &log };
        let _c = Noisy { name: "c", log: &log };
        drop(b);
    }
    assert_eq!(*log.borrow(), vec!["b", "c", "a"]);

    assert!(matches!(normalize("plain"), Cow::Borrowed(_)));
    assert_eq!(normalize("has space"), "has_space");
    let mut cow: Cow<[i32]> = Cow::Borrowed(&[1, 2]);
    cow.to_mut().push(3);
    assert_eq!(&*cow, &[1, 2, 3]);
    println!("OK");
}
