// Panics: catch_unwind with custom hooks, payload downcasting (&str and String), resume_unwind,
// panics in threads, Drop running during unwinding, poisoned Mutex recovery and AssertUnwindSafe.
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::thread;

struct Guard<'a>(&'a Cell<u32>);
impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

fn payload_msg(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown".into()
    }
}

fn divide(a: i32, b: i32) -> i32 {
    if b == 0 {
        panic!("division by zero: {}/{}", a, b);
    }
    a / b
}

fn main() {
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let s2 = Arc::clone(&seen);
    panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<&str>().map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let loc = info.location().map(|l| l.line()).unwrap_or(0);
        if let Ok(mut v) = s2.lock() {
            v.push(format!("{}@{}", msg, loc > 0));
        }
    }));

    assert_eq!(panic::catch_unwind(|| 42).unwrap(), 42);
    let r = panic::catch_unwind(|| panic!("static str"));
    assert_eq!(payload_msg(&r.unwrap_err()), "static str");
    let r = panic::catch_unwind(|| divide(1, 0));
    assert_eq!(payload_msg(&r.unwrap_err()), "division by zero: 1/0");
    let r = panic::catch_unwind(|| {
        let v: Vec<i32> = Vec::new();
        v[3]
    });
    assert!(payload_msg(&r.unwrap_err()).contains("index out of bounds"));
    let r = panic::catch_unwind(|| None::<i32>.expect("needed a value"));
    assert_eq!(payload_msg(&r.unwrap_err()), "needed a value");
    let r = panic::catch_unwind(|| "x".parse::<i32>().unwrap());
    assert!(payload_msg(&r.unwrap_err()).contains("InvalidDigit"));
    let r = panic::catch_unwind(|| panic::panic_any(7u8));
    assert_eq!(r.unwrap_err().downcast_ref::<u8>(), Some(&7));

    let drops = Cell::new(0);
    let r = panic::catch_unwind(AssertUnwindSafe(|| {
        let _g1 = Guard(&drops);
        let _g2 = Guard(&drops);
        panic!("unwind me");
    }));
    assert!(r.is_err());
    assert_eq!(drops.get(), 2);

    let r = panic::catch_unwind(|| {
        let inner = panic::catch_unwind(|| panic!("inner"));
        panic::resume_unwind(inner.unwrap_err());
    });
    assert_eq!(payload_msg(&r.unwrap_err()), "inner");

    let h = thread::spawn(|| {
        panic!("thread {}", 7);
    });
    let e = h.join().unwrap_err();
    assert_eq!(payload_msg(&e), "thread 7");

    let m = Arc::new(Mutex::new(5));
    let m2 = Arc::clone(&m);
    let _ = thread::spawn(move || {
        let mut g = m2.lock().unwrap();
        *g = 6;
        panic!("poison");
    })
    .join();
    assert!(m.is_poisoned());
    let v = match m.lock() {
        Ok(g) => *g,
        Err(poisoned) => *poisoned.into_inner(),
    };
    assert_eq!(v, 6);

    let _ = panic::take_hook();
    let log = seen.lock().unwrap().clone();
    assert!(log.len() >= 9, "{:?}", log);
    assert!(log.iter().all(|l| l.ends_with("@true")));
    println!("OK");
}
