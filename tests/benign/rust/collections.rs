// Standard collections: Vec, HashMap (entry API), BTreeMap (ranges), HashSet/BTreeSet (set algebra), VecDeque, BinaryHeap.
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, VecDeque};

fn main() {
    let mut v: Vec<i32> = Vec::with_capacity(4);
    for i in 0..100 {
        v.push(i * 3 % 17);
    }
    assert_eq!(v.len(), 100);
    v.sort();
    v.dedup();
    assert_eq!(v, (0..17).collect::<Vec<_>>());
    v.retain(|&x| x % 2 == 0);
    assert_eq!(v.iter().sum::<i32>(), 72);
    v.insert(0, -1);
    assert_eq!(v.remove(1), 0);
    v.truncate(3);
    assert_eq!(v, vec![-1, 2, 4]);
    v.extend_from_slice(&[9, 9]);
    assert_eq!(v.iter().rposition(|&x| x == 9), Some(4));
    let drained: Vec<i32> = v.drain(1..3).collect();
    assert_eq!(drained, vec![2, 4]);
    assert!(v.contains(&9) && v.first() == Some(&-1) && v.last() == Some(&9));
    let mut grid = vec![vec![0u8; 10]; 10];
    grid[3][4] = 7;
    assert_eq!(grid.iter().flatten().map(|&x| x as u32).sum::<u32>(), 7);

    let text = "the cat and the dog and the bird";
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w).or_insert(0) += 1;
    }
    assert_eq!(counts["the"], 3);
    assert_eq!(counts.get("and"), Some(&2));
    assert_eq!(counts.get("fish"), None);
    counts.entry("cat").and_modify(|c| *c += 10).or_insert(0);
    assert_eq!(counts["cat"], 11);
    assert_eq!(counts.remove("the"), Some(3));
    let mut keys: Vec<_> = counts.keys().copied().collect();
    keys.sort_unstable();
    assert_eq!(keys, ["and", "bird", "cat", "dog"]);
    let big: HashMap<u64, u64> = (0..100_000u64).map(|i| (i, i * i)).collect();
    assert_eq!(big.len(), 100_000);
    assert_eq!(big[&99_999], 9_999_800_001);

    let mut bt = BTreeMap::new();
    for (i, w) in ["delta", "alpha", "charlie", "bravo", "echo"].iter().enumerate() {
        bt.insert(*w, i);
    }
    assert_eq!(bt.keys().next(), Some(&"alpha"));
    let mid: Vec<_> = bt.range("b".."d").map(|(k, _)| *k).collect();
    assert_eq!(mid, vec!["bravo", "charlie"]);
    assert_eq!(bt.iter().next_back().map(|(k, v)| (*k, *v)), Some(("echo", 4)));
    let mut split = bt.clone();
    let high = split.split_off("c");
    assert_eq!(split.len(), 2);
    assert_eq!(high.len(), 3);

    let a: HashSet<i32> = (1..10).collect();
    let b: HashSet<i32> = (5..15).collect();
    let mut inter: Vec<_> = a.intersection(&b).copied().collect();
    inter.sort();
    assert_eq!(inter, vec![5, 6, 7, 8, 9]);
    assert_eq!(a.union(&b).count(), 14);
    assert_eq!(a.difference(&b).count(), 4);
    assert_eq!(a.symmetric_difference(&b).count(), 9);
    let mut hs = HashSet::new();
    assert!(hs.insert("x") && !hs.insert("x"));
    let bs: BTreeSet<char> = "mississippi".chars().collect();
    assert_eq!(bs.iter().collect::<String>(), "imps");

    let mut dq: VecDeque<i32> = VecDeque::new();
    dq.push_back(2);
    dq.push_back(3);
    dq.push_front(1);
    dq.push_front(0);
    assert_eq!(dq.iter().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    assert_eq!(dq.pop_front(), Some(0));
    assert_eq!(dq.pop_back(), Some(3));
    dq.rotate_left(1);
    assert_eq!(dq.make_contiguous(), &[2, 1]);
    assert_eq!(dq[1], 1);

    let mut heap = BinaryHeap::new();
    for x in [5, 1, 8, 3, 9, 2] {
        heap.push(x);
    }
    assert_eq!(heap.peek(), Some(&9));
    assert_eq!(heap.pop(), Some(9));
    assert_eq!(heap.into_sorted_vec(), vec![1, 2, 3, 5, 8]);
    let mut minheap: BinaryHeap<Reverse<(u32, &str)>> = BinaryHeap::new();
    minheap.push(Reverse((3, "c")));
    minheap.push(Reverse((1, "a")));
    minheap.push(Reverse((2, "b")));
    let order: Vec<&str> = std::iter::from_fn(|| minheap.pop().map(|Reverse((_, s))| s)).collect();
    assert_eq!(order, vec!["a", "b", "c"]);
    println!("OK");
}
