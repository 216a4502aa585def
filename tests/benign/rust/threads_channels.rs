// std::thread and std::sync::mpsc: spawn/join with results, channels (unbounded, bounded, multiple producers),
// recv_timeout, scoped threads borrowing locals, Condvar, Barrier, thread names, park/unpark and thread_local!.
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Barrier, Condvar, Mutex};
use std::thread;
use std::time::Duration;

thread_local! {
    static LOCAL: RefCell<u32> = RefCell::new(0);
}

fn main() {
    let handles: Vec<thread::JoinHandle<u64>> = (0..4u64).map(|i| thread::spawn(move || (i * 1000..(i + 1) * 1000).sum())).collect();
    let total: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(total, (0..4000u64).sum());

    let (tx, rx) = mpsc::channel();
    for id in 0..5 {
        let tx = tx.clone();
        thread::spawn(move || {
            for j in 0..100 {
                tx.send((id, j)).unwrap();
            }
        });
    }
    drop(tx);
    let got: Vec<(i32, i32)> = rx.iter().collect();
    assert_eq!(got.len(), 500);
    assert_eq!(got.iter().filter(|(id, _)| *id == 3).count(), 100);

    let (stx, srx) = mpsc::sync_channel::<String>(2);
    let producer = thread::spawn(move || {
        for i in 0..10 {
            stx.send(format!("msg{}", i)).unwrap();
        }
    });
    let mut n = 0;
    for m in srx.iter() {
        assert!(m.starts_with("msg"));
        n += 1;
    }
    producer.join().unwrap();
    assert_eq!(n, 10);

    let (tx, rx) = mpsc::channel::<i32>();
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    assert_eq!(rx.recv_timeout(Duration::from_millis(20)), Err(RecvTimeoutError::Timeout));
    thread::spawn(move || {
        thread::sleep(Duration::from_millis(10));
        tx.send(99).unwrap();
    });
    assert_eq!(rx.recv_timeout(Duration::from_secs(2)), Ok(99));
    assert_eq!(rx.recv(), Err(mpsc::RecvError));

    // scoped threads borrow local data without Arc
    let mut data = vec![1u64; 1000];
    let words = ["a", "bb", "ccc"];
    let lens = thread::scope(|s| {
        for chunk in data.chunks_mut(250) {
            s.spawn(move || chunk.iter_mut().for_each(|x| *x *= 2));
        }
        let h = s.spawn(|| words.iter().map(|w| w.len()).sum::<usize>());
        h.join().unwrap()
    });
    assert_eq!(lens, 6);
    assert_eq!(data.iter().sum::<u64>(), 2000);

    // Condvar
    let pair = Arc::new((Mutex::new(false), Condvar::new()));
    let p2 = Arc::clone(&pair);
    thread::spawn(move || {
        let (lock, cv) = &*p2;
        *lock.lock().unwrap() = true;
        cv.notify_one();
    });
    let (lock, cv) = &*pair;
    let started = cv.wait_while(lock.lock().unwrap(), |s| !*s).unwrap();
    assert!(*started);
    drop(started);
    let (g, res) = cv.wait_timeout(lock.lock().unwrap(), Duration::from_millis(5)).unwrap();
    assert!(res.timed_out() && *g);
    drop(g);

    // Barrier
    let barrier = Arc::new(Barrier::new(4));
    let leaders: usize = (0..4)
        .map(|_| {
            let b = Arc::clone(&barrier);
            thread::spawn(move || b.wait().is_leader())
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap() as usize)
        .sum();
    assert_eq!(leaders, 1);

    // names, builder with stack size, panics propagate as Err on join
    let h = thread::Builder::new().name("worker-7".into()).stack_size(256 * 1024).spawn(|| thread::current().name().map(String::from)).unwrap();
    assert_eq!(h.join().unwrap().as_deref(), Some("worker-7"));
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = thread::spawn(|| panic!("boom")).join();
    std::panic::set_hook(prev);
    assert!(r.is_err());

    // park / unpark
    let flag = Arc::new(AtomicBool::new(false));
    let f2 = Arc::clone(&flag);
    let parked = thread::spawn(move || {
        while !f2.load(Ordering::Acquire) {
            thread::park();
        }
    });
    thread::sleep(Duration::from_millis(5));
    flag.store(true, Ordering::Release);
    parked.thread().unpark();
    parked.join().unwrap();

    LOCAL.with(|l| *l.borrow_mut() = 5);
    let other = thread::spawn(|| LOCAL.with(|l| *l.borrow())).join().unwrap();
    assert_eq!(other, 0);
    LOCAL.with(|l| assert_eq!(*l.borrow(), 5));
    assert!(thread::available_parallelism().map(|n| n.get()).unwrap_or(1) >= 1);
    println!("OK");
}
