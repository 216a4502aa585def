// Sorting and searching: sort/sort_unstable, sort_by_key/sort_by with tie-breakers, cached keys, stable sort,
// reverse and Ordering combinators, binary_search (by key), partition_point, select_nth_unstable, dedup, min/max.
use std::cmp::{Ordering, Reverse};

#[derive(Debug, Clone, PartialEq)]
struct Employee {
    name: &'static str,
    dept: &'static str,
    salary: u32,
}

fn main() {
    let mut v = vec![5, 3, 9, 1, 3, 7, 2];
    v.sort();
    assert_eq!(v, [1, 2, 3, 3, 5, 7, 9]);
    assert_eq!(v.binary_search(&7), Ok(5));
    assert_eq!(v.binary_search(&4), Err(4));
    assert!(matches!(v.binary_search(&3), Ok(2) | Ok(3)));
    assert_eq!(v.partition_point(|&x| x < 5), 4);
    v.dedup();
    assert_eq!(v, [1, 2, 3, 5, 7, 9]);
    v.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(v, [9, 7, 5, 3, 2, 1]);
    v.sort_by_key(|&x| Reverse(x));
    assert_eq!(v[0], 9);
    v.reverse();
    assert_eq!(v, [1, 2, 3, 5, 7, 9]);

    let mut staff = vec![
        Employee { name: "eve", dept: "ops", salary: 90 },
        Employee { name: "bob", dept: "dev", salary: 120 },
        Employee { name: "amy", dept: "dev", salary: 120 },
        Employee { name: "dan", dept: "ops", salary: 80 },
        Employee { name: "cat", dept: "dev", salary: 100 },
    ];
    staff.sort_by(|a, b| a.dept.cmp(b.dept).then_with(|| b.salary.cmp(&a.salary)).then(a.name.cmp(b.name)));
    let order: Vec<&str> = staff.iter().map(|e| e.name).collect();
    assert_eq!(order, ["amy", "bob", "cat", "eve", "dan"]);
    staff.sort_by_key(|e| e.salary); // stable: ties keep order
    let order: Vec<&str> = staff.iter().map(|e| e.name).collect();
    assert_eq!(order, ["dan", "eve", "cat", "amy", "bob"]);
    staff.sort_by_cached_key(|e| e.name.to_string());
    assert_eq!(staff[0].name, "amy");
    let idx = staff.binary_search_by_key(&"cat", |e| e.name).unwrap();
    assert_eq!(staff[idx].salary, 100);
    assert_eq!(staff.binary_search_by(|e| e.name.cmp("zed")), Err(5));
    let top = staff.iter().max_by_key(|e| (e.salary, Reverse(e.name))).unwrap();
    assert_eq!(top.name, "amy");
    let cheapest = staff.iter().min_by(|a, b| a.salary.cmp(&b.salary)).unwrap();
    assert_eq!(cheapest.name, "dan");

    let mut fl = vec![2.5, -1.0, 3.75, 0.0];
    fl.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(fl, [-1.0, 0.0, 2.5, 3.75]);
    let mut tf = vec![1.0f64, f64::NAN, -2.0];
    tf.sort_by(|a, b| a.total_cmp(b));
    assert_eq!(tf[0], -2.0);
    assert!(tf[2].is_nan());

    let mut words = vec!["Banana", "apple", "cherry", "Apple"];
    words.sort_by_key(|w| w.to_lowercase());
    assert_eq!(words, ["apple", "Apple", "Banana", "cherry"]);
    words.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    assert_eq!(words, ["Banana", "cherry", "Apple", "apple"]);

    let mut big: Vec<u64> = (0..100_000u64).map(|i| (i * 2654435761) % 1_000_003).collect();
    let mut copy = big.clone();
    let (_, median, _) = big.select_nth_unstable(50_000);
    let median = *median;
    copy.sort_unstable();
    assert_eq!(median, copy[50_000]);
    assert!(copy.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(copy.iter().copied().max(), Some(*copy.last().unwrap()));

    assert_eq!(1.cmp(&2), Ordering::Less);
    assert_eq!(Ordering::Less.reverse(), Ordering::Greater);
    assert_eq!(std::cmp::max("a", "b"), "b");
    assert_eq!(5.clamp(0, 3), 3);
    assert_eq!([3, 1, 2].iter().copied().fold(i32::MAX, i32::min), 1);
    let mut dd = vec!["a", "A", "b", "B", "b"];
    dd.dedup_by_key(|s| s.to_lowercase());
    assert_eq!(dd, ["a", "b"]);
    let sorted_desc = [9, 8, 5, 1];
    assert_eq!(sorted_desc.binary_search_by(|p| 5.cmp(p)), Ok(2));
    println!("OK");
}
