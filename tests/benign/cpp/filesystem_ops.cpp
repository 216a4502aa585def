// <filesystem> in the working directory: paths, create_directories, iterating (flat and recursive),
// sizes, copy/rename/remove, symlinks and hard links, permissions, times, space, error_code forms.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)
namespace fs = std::filesystem;

static void write(const fs::path &p, const std::string &s) { std::ofstream(p) << s; }

int main() {
    fs::path cwd = fs::current_path();
    CHECK(cwd.is_absolute() && fs::is_directory(cwd));
    CHECK(fs::equivalent(fs::temp_directory_path(), cwd));     // TMPDIR is the working directory

    fs::path p = "project/src/main.cpp";
    CHECK(p.filename() == "main.cpp" && p.stem() == "main" && p.extension() == ".cpp" && p.parent_path() == "project/src");
    CHECK((fs::path("a") / "b" / "c.txt").string() == "a/b/c.txt" && fs::path("x/./y/../z").lexically_normal() == "x/z");
    CHECK(fs::path("/a/b/c").lexically_relative("/a/d") == "../b/c");
    fs::path q = p; q.replace_extension(".hpp"); CHECK(q.filename() == "main.hpp");

    fs::path root = "fs_work";
    fs::remove_all(root);
    CHECK(fs::create_directories(root / "src" / "deep" / "er"));
    CHECK(!fs::create_directory(root / "src"));                  // already there
    for (int i = 0; i < 5; i++) write(root / "src" / ("f" + std::to_string(i) + ".txt"), std::string(100 * (i + 1), 'x'));
    write(root / "src" / "deep" / "er" / "leaf.txt", "leaf");
    CHECK(fs::file_size(root / "src" / "f4.txt") == 500);

    std::vector<std::string> names;
    for (auto &e : fs::directory_iterator(root / "src")) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names.size() == 6 && names[0] == "deep" && names[5] == "f4.txt");
    uintmax_t total = 0; int files = 0, dirs = 0;
    for (auto &e : fs::recursive_directory_iterator(root)) {
        if (e.is_regular_file()) { files++; total += e.file_size(); } else if (e.is_directory()) dirs++;
    }
    CHECK(files == 6 && dirs == 3 && total == 1500 + 4);

    fs::copy_file(root / "src" / "f0.txt", root / "copy.txt");
    CHECK(fs::exists(root / "copy.txt") && fs::file_size(root / "copy.txt") == 100);
    CHECK(!fs::copy_file(root / "src" / "f1.txt", root / "copy.txt", fs::copy_options::skip_existing));
    fs::copy(root / "src", root / "backup", fs::copy_options::recursive);
    CHECK(fs::exists(root / "backup" / "deep" / "er" / "leaf.txt"));
    fs::rename(root / "copy.txt", root / "renamed.txt");
    CHECK(!fs::exists(root / "copy.txt") && fs::exists(root / "renamed.txt"));
    fs::resize_file(root / "renamed.txt", 10); CHECK(fs::file_size(root / "renamed.txt") == 10);

    fs::create_symlink("renamed.txt", root / "link.txt");
    CHECK(fs::is_symlink(root / "link.txt") && fs::read_symlink(root / "link.txt") == "renamed.txt");
    CHECK(fs::canonical(root / "link.txt") == cwd / root / "renamed.txt");
    fs::create_hard_link(root / "renamed.txt", root / "hard.txt");
    CHECK(fs::hard_link_count(root / "renamed.txt") == 2);
    fs::create_directory_symlink("src", root / "srclink");
    CHECK(fs::is_directory(root / "srclink") && fs::exists(root / "srclink" / "f2.txt"));

    fs::permissions(root / "renamed.txt", fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    CHECK((fs::status(root / "renamed.txt").permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
    auto t0 = fs::last_write_time(root / "renamed.txt");
    fs::last_write_time(root / "renamed.txt", t0 - std::chrono::hours(24));
    CHECK(fs::last_write_time(root / "renamed.txt") < t0);
    fs::space_info sp = fs::space(cwd); CHECK(sp.capacity > 0 && sp.available <= sp.capacity);

    std::error_code ec;
    (void)fs::file_size(root / "missing", ec); CHECK(ec == std::errc::no_such_file_or_directory);
    CHECK(!fs::remove(root / "src", ec) && ec);                  // not empty
    bool threw = false; try { (void)fs::file_size(root / "missing"); } catch (const fs::filesystem_error &e) { threw = e.path1() == root / "missing"; }
    CHECK(threw);
    CHECK(fs::status(root / "missing").type() == fs::file_type::not_found);

    fs::current_path(root / "src"); CHECK(fs::exists("f1.txt")); fs::current_path(cwd);
    auto removed = fs::remove_all(root);
    CHECK(removed == 23 && !fs::exists(root));   // root, src and backup (9 each), 4 links/files
    std::cout << "removed " << removed << "\nOK\n";
    return 0;
}
