// Slices: indexing and ranges, split_at/split_first, chunks/chunks_exact/rchunks/windows, split by predicate,
// rotate/swap/fill/copy_from_slice, iter_mut, contains/starts_with, 2-D data in a flat Vec, arrays and array::from_fn.
fn moving_average(data: &[f64], n: usize) -> Vec<f64> {
    data.windows(n).map(|w| w.iter().sum::<f64>() / n as f64).collect()
}

fn transpose(m: &[u32], rows: usize, cols: usize) -> Vec<u32> {
    let mut t = vec![0; m.len()];
    for (r, row) in m.chunks_exact(cols).enumerate() {
        for (c, &v) in row.iter().enumerate() {
            t[c * rows + r] = v;
        }
    }
    t
}

fn sum_slice(s: &[i64]) -> i64 {
    match s {
        [] => 0,
        [x] => *x,
        [first, rest @ ..] => first + sum_slice(rest),
    }
}

fn main() {
    let v: Vec<i32> = (1..=10).collect();
    let s = &v[2..5];
    assert_eq!(s, &[3, 4, 5]);
    assert_eq!(&v[..2], &[1, 2]);
    assert_eq!(&v[8..], &[9, 10]);
    assert_eq!(v.get(20), None);
    assert_eq!(v.get(1..3), Some(&[2, 3][..]));
    let (l, r) = v.split_at(4);
    assert_eq!((l.len(), r[0]), (4, 5));
    let (first, rest) = v.split_first().unwrap();
    assert_eq!((*first, rest.len()), (1, 9));
    assert_eq!(v.split_last().map(|(x, _)| *x), Some(10));

    let chunks: Vec<Vec<i32>> = v.chunks(3).map(|c| c.to_vec()).collect();
    assert_eq!(chunks, vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8, 9], vec![10]]);
    let ce = v.chunks_exact(4);
    assert_eq!(ce.remainder(), &[9, 10]);
    assert_eq!(ce.map(|c| c.iter().sum::<i32>()).collect::<Vec<_>>(), vec![10, 26]);
    assert_eq!(v.rchunks(4).next(), Some(&[7, 8, 9, 10][..]));
    assert_eq!(v.windows(3).count(), 8);
    assert!(v.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(moving_average(&[1.0, 2.0, 3.0, 4.0], 2), vec![1.5, 2.5, 3.5]);
    let parts: Vec<&[i32]> = [1, 0, 2, 3, 0, 4].split(|&x| x == 0).collect();
    assert_eq!(parts, vec![&[1][..], &[2, 3][..], &[4][..]]);
    assert_eq!(b"a,b,,c".split(|&c| c == b',').filter(|p| !p.is_empty()).count(), 3);

    let mut m = vec![0u8; 8];
    m.fill(7);
    m[..3].copy_from_slice(&[1, 2, 3]);
    m.swap(0, 7);
    assert_eq!(m, [7, 2, 3, 7, 7, 7, 7, 1]);
    m.rotate_left(2);
    assert_eq!(m, [3, 7, 7, 7, 7, 1, 7, 2]);
    m.rotate_right(1);
    assert_eq!(m[0], 2);
    for (i, x) in m.iter_mut().enumerate() {
        *x = (i * i) as u8;
    }
    assert_eq!(m, [0, 1, 4, 9, 16, 25, 36, 49]);
    for c in m.chunks_mut(2) {
        c.swap(0, 1);
    }
    assert_eq!(&m[..4], &[1, 0, 9, 4]);
    let (a, b) = m.split_at_mut(4);
    a[0] = b[3];
    assert_eq!(m[0], 36);
    assert!(m.contains(&25) && m.starts_with(&[36, 0]) && m.ends_with(&[49, 36]));
    assert_eq!(m.iter().rev().take(2).copied().collect::<Vec<_>>(), vec![36, 49]);
    assert_eq!([[1, 2], [3, 4]].concat(), vec![1, 2, 3, 4]);
    assert_eq!(["a", "b"].join("-"), "a-b");
    assert_eq!(vec![0; 3].repeat(2).len(), 6);

    let grid: Vec<u32> = (0..6).collect(); // 2x3
    assert_eq!(transpose(&grid, 2, 3), vec![0, 3, 1, 4, 2, 5]);
    assert_eq!(sum_slice(&[1, 2, 3, 4]), 10);

    let arr: [u32; 5] = std::array::from_fn(|i| (i as u32 + 1) * 10);
    assert_eq!(arr, [10, 20, 30, 40, 50]);
    let doubled = arr.map(|x| x * 2);
    assert_eq!(doubled[4], 100);
    let mut twod = [[0i32; 4]; 3];
    twod[2][3] = 5;
    assert_eq!(twod.iter().flatten().sum::<i32>(), 5);
    let bytes = "hello world".as_bytes();
    assert_eq!(bytes.iter().position(|&b| b == b' '), Some(5));
    assert_eq!(bytes.to_ascii_uppercase(), b"HELLO WORLD".to_vec());
    let big = vec![1u64; 1 << 20];
    let total: u64 = big.chunks(4096).map(|c| c.iter().sum::<u64>()).sum();
    assert_eq!(total, 1 << 20);
    println!("OK");
}
