# Files in the working directory: File/IO modes, StringIO, Tempfile, Dir, FileUtils, Pathname, Find, stat and locks.
require "stringio"
require "tempfile"
require "fileutils"
require "pathname"
require "find"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

check File.writable?(Dir.pwd) && Dir.home == ENV["HOME"], "cwd writable, HOME set"
File.write("a.txt", "line 1\nline 2\n")
File.write("a.txt", "line 3\n", mode: "a")
check File.readlines("a.txt", chomp: true) == ["line 1", "line 2", "line 3"], "write/append/readlines"
File.open("a.txt", "r+") do |f|
  f.seek(5)
  f.write("X")
  f.rewind
  check f.gets == "line X\n" && f.pos == 7 && f.read(4) == "line", "seek/gets/pos"
  f.flock(File::LOCK_EX)
  f.flock(File::LOCK_UN)
end
check File.size("a.txt") == 21 && File.file?("a.txt") && !File.directory?("a.txt") && File.extname("x/a.tar.gz") == ".gz", "stat predicates"
st = File.stat("a.txt")
check st.size == 21 && st.file? && st.mode & 0o777 != 0 && st.mtime <= Time.now + 1, "File::Stat"
File.chmod(0o600, "a.txt")
check File.stat("a.txt").mode & 0o777 == 0o600, "chmod"
File.utime(Time.at(0), Time.at(1_000_000), "a.txt")
check File.mtime("a.txt").to_i == 1_000_000, "utime"
File.open("bin.dat", "wb") { |f| f.write([1, 2, 3, 255].pack("C*")) }
check File.binread("bin.dat").bytes == [1, 2, 3, 255], "binary"
check IO.readlines("a.txt").size == 3 && File.foreach("a.txt").count == 3, "IO.readlines/foreach"
File.symlink("a.txt", "link.txt")
File.link("a.txt", "hard.txt")
check File.symlink?("link.txt") && File.readlink("link.txt") == "a.txt" && File.stat("a.txt").nlink == 2, "links"
File.rename("hard.txt", "renamed.txt")
check File.exist?("renamed.txt") && !File.exist?("hard.txt") && File.identical?("a.txt", "renamed.txt"), "rename"
check File.expand_path("x", "/base") == "/base/x" && File.basename("/p/q.rb", ".rb") == "q" && File.join("a", "b") == "a/b", "path helpers"

FileUtils.mkdir_p("tree/sub/deep")
FileUtils.touch(%w[tree/one.rb tree/sub/two.rb tree/sub/deep/three.txt])
FileUtils.cp("a.txt", "tree/sub/copy.txt")
FileUtils.cp_r("tree", "tree2")
FileUtils.mv("tree2/one.rb", "tree2/uno.rb")
check Dir.glob("tree/**/*.rb").sort == %w[tree/one.rb tree/sub/two.rb], "Dir.glob"
check Dir.children("tree").sort == %w[one.rb sub] && Dir.exist?("tree2/sub/deep") && File.exist?("tree2/uno.rb"), "cp_r/mv"
check Dir.entries("tree").include?(".") && Dir.each_child("tree").count == 2, "entries"
found = []
Find.find("tree") { |p| found << p if File.file?(p) }
check found.sort == %w[tree/one.rb tree/sub/copy.txt tree/sub/deep/three.txt tree/sub/two.rb], "Find"
pn = Pathname("tree") / "sub" / "two.rb"
check pn.to_s == "tree/sub/two.rb" && pn.extname == ".rb" && pn.exist? && pn.parent.basename.to_s == "sub", "Pathname"
check Pathname("/a/b/../c").cleanpath.to_s == "/a/c" && Pathname("/a/b/c").relative_path_from(Pathname("/a")).to_s == "b/c", "Pathname math"
check Pathname("tree").children.size == 2 && Pathname("tree").glob("**/*.txt").size == 2, "Pathname children/glob"
Dir.chdir("tree/sub") { check File.exist?("two.rb"), "Dir.chdir block" }
FileUtils.rm_rf(%w[tree tree2])
check !Dir.exist?("tree"), "rm_rf"
Dir.mkdir("empty")
Dir.rmdir("empty")

io = StringIO.new(+"")
io.puts "first"
io.printf("%03d\n", 7)
io << "third\n"
check io.string == "first\n007\nthird\n", "StringIO write"
rd = StringIO.new("a,b\nc,d\n")
check rd.each_line.map { _1.chomp.split(",") } == [%w[a b], %w[c d]] && rd.eof?, "StringIO read"
old_stdout = $stdout
$stdout = StringIO.new
puts "captured"
captured = $stdout.string
$stdout = old_stdout
check captured == "captured\n", "capturing $stdout"

Tempfile.create(["report", ".csv"]) do |tf|
  tf.write("x,y\n1,2\n")
  tf.flush
  check File.extname(tf.path) == ".csv" && File.read(tf.path) == "x,y\n1,2\n", "Tempfile.create"
  check tf.path.start_with?(Dir.tmpdir), "Tempfile in Dir.tmpdir"
end
tf = Tempfile.new("keep")
tf.puts("data")
tf.close
check File.read(tf.path) == "data\n", "Tempfile.new"
tf.unlink
Dir.mktmpdir("work") do |d|
  File.write(File.join(d, "f"), "in tmpdir")
  check Dir.children(d) == ["f"], "mktmpdir"
end
check File.directory?(Dir.tmpdir) && File.writable?(Dir.tmpdir), "Dir.tmpdir"
IO.write("fd.txt", "via fd")
fd = IO.sysopen("fd.txt", "r")
check IO.new(fd).read == "via fd", "sysopen"
File.open("big.txt", "w") { |f| 20_000.times { |i| f.puts "row #{i}" } }
check File.foreach("big.txt").lazy.select { _1.end_with?("9\n") }.count == 2000, "many lines"
File.delete("a.txt", "bin.dat", "link.txt", "renamed.txt", "fd.txt", "big.txt")
check !File.exist?("a.txt") && !File.exist?("big.txt"), "deleted"
puts "OK"
