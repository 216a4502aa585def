// std::fs and std::io in the working directory: write/read, OpenOptions (append, create_new), BufWriter/BufReader
// line by line, Seek, metadata and permissions, create_dir_all/read_dir recursion, rename, symlink, hard link, copy, remove.
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<(PathBuf, u64)>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let ft = entry.file_type()?;
        if ft.is_dir() {
            walk(&entry.path(), out)?;
        } else if ft.is_file() {
            out.push((entry.path(), entry.metadata()?.len()));
        }
    }
    Ok(())
}

fn main() -> io::Result<()> {
    let cwd = std::env::current_dir()?;
    assert!(cwd.is_absolute());

    fs::write("hello.txt", "hello\n")?;
    let mut f = OpenOptions::new().append(true).open("hello.txt")?;
    writeln!(f, "world")?;
    f.sync_all()?;
    drop(f);
    assert_eq!(fs::read_to_string("hello.txt")?, "hello\nworld\n");
    assert_eq!(fs::read("hello.txt")?.len(), 12);
    let e = OpenOptions::new().write(true).create_new(true).open("hello.txt").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);

    {
        let mut w = BufWriter::new(File::create("lines.txt")?);
        for i in 0..20_000 {
            writeln!(w, "{:06} {}", i, i * i)?;
        }
        w.flush()?;
    }
    let r = BufReader::new(File::open("lines.txt")?);
    let mut count = 0u64;
    let mut sum = 0u64;
    for line in r.lines() {
        let line = line?;
        let mut parts = line.split(' ');
        let i: u64 = parts.next().unwrap().parse().unwrap();
        let sq: u64 = parts.next().unwrap().parse().unwrap();
        assert_eq!(i * i, sq);
        sum += i;
        count += 1;
    }
    assert_eq!((count, sum), (20_000, 199_990_000));
    let mut br = BufReader::new(File::open("lines.txt")?);
    let mut first = String::new();
    br.read_line(&mut first)?;
    assert_eq!(first, "000000 0\n");
    let mut buf = Vec::new();
    br.read_until(b'\n', &mut buf)?;
    assert_eq!(buf, b"000001 1\n");

    let mut f = OpenOptions::new().read(true).write(true).open("hello.txt")?;
    f.seek(SeekFrom::Start(6))?;
    let mut five = [0u8; 5];
    f.read_exact(&mut five)?;
    assert_eq!(&five, b"world");
    f.seek(SeekFrom::Start(0))?;
    f.write_all(b"J")?;
    let end = f.seek(SeekFrom::End(0))?;
    assert_eq!(end, 12);
    f.set_len(5)?;
    drop(f);
    assert_eq!(fs::read_to_string("hello.txt")?, "Jello");

    let md = fs::metadata("lines.txt")?;
    assert!(md.is_file() && md.len() > 100_000 && md.modified().is_ok());
    assert!(md.uid() > 0 || md.uid() == 0);
    fs::set_permissions("hello.txt", fs::Permissions::from_mode(0o600))?;
    assert_eq!(fs::metadata("hello.txt")?.permissions().mode() & 0o777, 0o600);
    let mut ro = fs::metadata("hello.txt")?.permissions();
    ro.set_readonly(true);
    fs::set_permissions("hello.txt", ro)?;
    assert!(fs::metadata("hello.txt")?.permissions().readonly());
    fs::set_permissions("hello.txt", fs::Permissions::from_mode(0o644))?;

    fs::create_dir_all("tree/a/b")?;
    fs::create_dir("tree/c")?;
    fs::write("tree/a/1.rs", "x")?;
    fs::write("tree/a/b/2.rs", "xx")?;
    fs::write("tree/c/3.txt", "xxx")?;
    fs::rename("hello.txt", "tree/c/moved.txt")?;
    assert_eq!(fs::copy("tree/a/b/2.rs", "tree/copy.rs")?, 2);
    symlink("a/1.rs", "tree/link.rs")?;
    assert_eq!(fs::read_link("tree/link.rs")?, PathBuf::from("a/1.rs"));
    assert!(fs::symlink_metadata("tree/link.rs")?.file_type().is_symlink());
    assert_eq!(fs::read_to_string("tree/link.rs")?, "x");
    fs::hard_link("tree/a/1.rs", "tree/hard.rs")?;
    assert_eq!(fs::metadata("tree/hard.rs")?.nlink(), 2);
    let canon = fs::canonicalize("tree/link.rs")?;
    assert!(canon.ends_with("tree/a/1.rs"));

    let mut files = Vec::new();
    walk(Path::new("tree"), &mut files)?;
    files.sort();
    let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
    assert_eq!(names, ["tree/a/1.rs", "tree/a/b/2.rs", "tree/c/3.txt", "tree/c/moved.txt", "tree/copy.rs", "tree/hard.rs"]);
    assert_eq!(files.iter().map(|(_, n)| n).sum::<u64>(), 1 + 2 + 3 + 5 + 2 + 1);

    let p = Path::new("tree/a/b/archive.tar.gz");
    assert_eq!(p.extension().and_then(|e| e.to_str()), Some("gz"));
    assert_eq!(p.file_stem().and_then(|e| e.to_str()), Some("archive.tar"));
    assert_eq!(p.parent(), Some(Path::new("tree/a/b")));
    assert_eq!(Path::new("x").join("y").with_extension("z"), PathBuf::from("x/y.z"));
    assert_eq!(p.components().count(), 4);
    assert!(Path::new("tree").exists() && !Path::new("nope").exists());

    assert_eq!(fs::remove_dir("tree").unwrap_err().raw_os_error(), Some(39)); // ENOTEMPTY
    fs::remove_dir_all("tree")?;
    fs::remove_file("lines.txt")?;
    let left: Vec<_> = fs::read_dir(".")?.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert!(!left.iter().any(|n| n == "tree" || n == "lines.txt"));

    let tmp = std::env::temp_dir().join(format!("wb-{}", std::process::id()));
    fs::create_dir(&tmp)?;
    fs::write(tmp.join("t"), b"tmp")?;
    fs::remove_dir_all(&tmp)?;

    let stdout = io::stdout();
    let mut lock = stdout.lock();
    writeln!(lock, "OK")?;
    Ok(())
}
