// Atomics: fetch_add/fetch_sub/fetch_max/fetch_update, compare_exchange loops, a spinlock built on AtomicBool,
// release/acquire fences, static atomics and a lazy init with std::sync::Once.
use std::sync::atomic::{fence, AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::thread;

static GLOBAL_COUNT: AtomicUsize = AtomicUsize::new(0);
static INIT: Once = Once::new();
static mut CONFIG: u32 = 0;

struct SpinLock {
    locked: AtomicBool,
}
impl SpinLock {
    fn lock(&self) {
        while self.locked.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            std::hint::spin_loop();
        }
    }
    fn unlock(&self) {
        self.locked.store(false, Ordering::Release);
    }
}

fn config() -> u32 {
    INIT.call_once(|| unsafe { CONFIG = 42 });
    unsafe { CONFIG }
}

fn main() {
    let n = Arc::new(AtomicU64::new(0));
    let max = Arc::new(AtomicI64::new(i64::MIN));
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let n = Arc::clone(&n);
            let max = Arc::clone(&max);
            thread::spawn(move || {
                for i in 0..10_000 {
                    n.fetch_add(1, Ordering::Relaxed);
                    max.fetch_max(t * 10_000 + i, Ordering::Relaxed);
                }
                GLOBAL_COUNT.fetch_add(1, Ordering::SeqCst);
                assert_eq!(config(), 42);
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(n.load(Ordering::SeqCst), 80_000);
    assert_eq!(max.load(Ordering::SeqCst), 79_999);
    assert_eq!(GLOBAL_COUNT.load(Ordering::SeqCst), 8);

    // CAS loop: multiply atomically
    let v = AtomicU64::new(1);
    for _ in 0..10 {
        let mut cur = v.load(Ordering::Relaxed);
        loop {
            match v.compare_exchange(cur, cur * 3, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => break,
                Err(actual) => cur = actual,
            }
        }
    }
    assert_eq!(v.load(Ordering::Relaxed), 59049);
    assert_eq!(v.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |x| if x > 0 { Some(x - 49) } else { None }), Ok(59049));
    assert_eq!(v.swap(7, Ordering::SeqCst), 59000);
    assert_eq!(v.fetch_sub(2, Ordering::SeqCst), 7);
    assert_eq!(v.fetch_and(0b100, Ordering::SeqCst), 5);
    assert_eq!(v.fetch_or(0b011, Ordering::SeqCst), 4);
    assert_eq!(v.fetch_xor(0b111, Ordering::SeqCst), 7);
    assert_eq!(v.into_inner(), 0);

    // a spinlock making a load-then-store increment safe
    let lock = Arc::new(SpinLock { locked: AtomicBool::new(false) });
    let shared = Arc::new(AtomicU64::new(0));
    let hs: Vec<_> = (0..4)
        .map(|_| {
            let lock = Arc::clone(&lock);
            let shared = Arc::clone(&shared);
            thread::spawn(move || {
                for _ in 0..2000 {
                    lock.lock();
                    let x = shared.load(Ordering::Relaxed);
                    shared.store(x + 1, Ordering::Relaxed);
                    lock.unlock();
                }
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap();
    }
    assert_eq!(shared.load(Ordering::SeqCst), 8000);

    // release/acquire message passing
    let data = Arc::new(AtomicU64::new(0));
    let ready = Arc::new(AtomicBool::new(false));
    let (d2, r2) = (Arc::clone(&data), Arc::clone(&ready));
    let producer = thread::spawn(move || {
        d2.store(123, Ordering::Relaxed);
        fence(Ordering::Release);
        r2.store(true, Ordering::Relaxed);
    });
    while !ready.load(Ordering::Relaxed) {
        std::hint::spin_loop();
        thread::yield_now();
    }
    fence(Ordering::Acquire);
    assert_eq!(data.load(Ordering::Relaxed), 123);
    producer.join().unwrap();
    let mut local = AtomicUsize::new(5);
    *local.get_mut() += 1;
    assert_eq!(local.load(Ordering::Relaxed), 6);
    println!("OK");
}
