// std::env: args/args_os, vars (HOME, LANG, PATH), set_var/remove_var, current_dir/set_current_dir,
// temp_dir, current_exe, split_paths/join_paths, consts::OS/ARCH, and std::process::id.
use std::env;
use std::ffi::OsString;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = env::args().collect();
    assert_eq!(args.len(), 1, "no arguments expected: {:?}", args);
    assert!(!args[0].is_empty());
    assert_eq!(env::args_os().count(), 1);
    assert_eq!(env::args().skip(1).next(), None);

    let home = env::var("HOME").expect("HOME");
    assert!(home.starts_with('/'));
    assert_eq!(env::var("LANG").as_deref(), Ok("C.UTF-8"));
    let path = env::var_os("PATH").expect("PATH");
    let dirs: Vec<PathBuf> = env::split_paths(&path).collect();
    assert!(dirs.iter().any(|d| d == &PathBuf::from("/usr/bin")));
    let joined = env::join_paths(["/a", "/b"].iter()).unwrap();
    assert_eq!(joined, OsString::from("/a:/b"));
    assert!(env::join_paths(["/a:b"].iter()).is_err());

    assert!(env::var("WB_SURELY_UNSET").is_err());
    assert!(matches!(env::var("WB_SURELY_UNSET"), Err(env::VarError::NotPresent)));
    env::set_var("WB_TEST", "value=1");
    assert_eq!(env::var("WB_TEST").unwrap(), "value=1");
    assert!(env::vars().any(|(k, v)| k == "WB_TEST" && v == "value=1"));
    env::remove_var("WB_TEST");
    assert!(env::var_os("WB_TEST").is_none());
    let n = env::vars_os().count();
    assert!(n >= 3);

    let cwd = env::current_dir().unwrap();
    std::fs::create_dir_all("sub/dir").unwrap();
    env::set_current_dir("sub/dir").unwrap();
    assert_eq!(env::current_dir().unwrap(), cwd.join("sub/dir"));
    std::fs::write("here.txt", "x").unwrap();
    env::set_current_dir(&cwd).unwrap();
    assert_eq!(std::fs::read_to_string("sub/dir/here.txt").unwrap(), "x");
    std::fs::remove_dir_all("sub").unwrap();

    let tmp = env::temp_dir();
    assert!(tmp.is_absolute());
    let exe = env::current_exe().unwrap();
    assert!(exe.is_absolute() && exe.file_name().is_some());
    assert_eq!(env::consts::OS, "linux");
    assert_eq!(env::consts::FAMILY, "unix");
    assert!(["x86_64", "aarch64"].contains(&env::consts::ARCH));
    assert!(std::process::id() > 0);
    println!("OK");
}
