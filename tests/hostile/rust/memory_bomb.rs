// Hostile: allocates 10 MB chunks forever, touching every page and keeping them all.
fn main() {
    let mut keep: Vec<Vec<u8>> = Vec::new();
    loop {
        let mut v = vec![0u8; 10 << 20];
        for i in (0..v.len()).step_by(4096) {
            unsafe { std::ptr::write_volatile(v.as_mut_ptr().add(i), i as u8 | 1) };
        }
        keep.push(v);
    }
}
