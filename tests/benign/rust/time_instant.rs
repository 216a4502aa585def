// std::time: Instant and Duration arithmetic, SystemTime and UNIX_EPOCH, sleep accuracy, timeouts via
// recv_timeout, and a hand-rolled civil date conversion from a Unix timestamp.
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = (z - era * 146097) as u64;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe as i64 + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn main() {
    let d = Duration::from_secs(90) + Duration::from_millis(1500);
    assert_eq!(d.as_secs(), 91);
    assert_eq!(d.subsec_millis(), 500);
    assert_eq!(d.as_millis(), 91_500);
    assert_eq!(Duration::from_secs_f64(0.25).as_nanos(), 250_000_000);
    assert_eq!(d * 2, Duration::from_secs(183));
    assert_eq!(d / 2, Duration::from_millis(45_750));
    assert_eq!(Duration::from_secs(1).checked_sub(Duration::from_secs(2)), None);
    assert_eq!(Duration::from_secs(1).saturating_sub(Duration::from_secs(2)), Duration::ZERO);
    assert_eq!(format!("{:?}", Duration::from_micros(1500)), "1.5ms");
    assert!(Duration::from_millis(1) < Duration::from_secs(1));

    let start = Instant::now();
    thread::sleep(Duration::from_millis(20));
    let el = start.elapsed();
    assert!(el >= Duration::from_millis(20) && el < Duration::from_secs(1), "{:?}", el);
    let later = start + Duration::from_secs(5);
    assert!(later > Instant::now());
    assert_eq!(later.duration_since(start), Duration::from_secs(5));
    assert_eq!(start.checked_duration_since(later), None);

    let now = SystemTime::now();
    let since = now.duration_since(UNIX_EPOCH).unwrap();
    assert!(since.as_secs() > 1_600_000_000);
    assert!(UNIX_EPOCH.duration_since(now).is_err());
    let (y, m, dd) = civil_from_days(since.as_secs() as i64 / 86400);
    assert!(y >= 2023 && (1..=12).contains(&m) && (1..=31).contains(&dd));
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(19782), (2024, 2, 29));
    assert_eq!(civil_from_days(-1), (1969, 12, 31));

    let (tx, rx) = mpsc::channel();
    let t0 = Instant::now();
    let ticker = thread::spawn(move || {
        for i in 0..5 {
            thread::sleep(Duration::from_millis(5));
            tx.send(i).unwrap();
        }
    });
    let ticks: Vec<i32> = rx.iter().collect();
    ticker.join().unwrap();
    assert_eq!(ticks, vec![0, 1, 2, 3, 4]);
    assert!(t0.elapsed() >= Duration::from_millis(25));

    // measure a loop with a deadline
    let deadline = Instant::now() + Duration::from_millis(30);
    let mut spins = 0u64;
    while Instant::now() < deadline {
        spins += 1;
    }
    assert!(spins > 0);
    let mtime = std::fs::metadata(".").unwrap().modified().unwrap();
    assert!(mtime <= SystemTime::now() + Duration::from_secs(5));
    println!("OK");
}
