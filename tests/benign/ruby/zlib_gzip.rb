# Zlib: deflate/inflate, levels, streaming, gzip files in cwd, GzipReader line reading, crc32/adler32, raw deflate.
require "zlib"
require "stringio"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

text = ("The quick brown fox jumps over the lazy dog. " * 2000).freeze
packed = Zlib::Deflate.deflate(text, Zlib::BEST_COMPRESSION)
check packed.bytesize < text.bytesize / 50 && Zlib::Inflate.inflate(packed) == text, "deflate/inflate"
fast = Zlib::Deflate.deflate(text, Zlib::BEST_SPEED)
check Zlib.inflate(fast) == text && Zlib.deflate("").bytesize > 0, "levels"
random = Random.new(3).bytes(50_000)
check Zlib.inflate(Zlib.deflate(random)) == random, "incompressible data"

z = Zlib::Deflate.new
chunks = text.scan(/.{1,1000}/m).map { z.deflate(_1) }
chunks << z.finish
z.close
inf = Zlib::Inflate.new
out = +""
chunks.join.each_char.each_slice(4096) { out << inf.inflate(_1.join) }
out << inf.finish
inf.close
check out == text, "streaming in small pieces"

Zlib::GzipWriter.open("data.txt.gz") do |gz|
  gz.mtime = Time.at(0)
  gz.orig_name = "data.txt"
  1000.times { |i| gz.puts "line #{i}" }
end
check File.binread("data.txt.gz", 2).bytes == [0x1f, 0x8b], "gzip magic"
lines = Zlib::GzipReader.open("data.txt.gz") { |gz| check(gz.orig_name == "data.txt", "orig_name"); gz.each_line.to_a }
check lines.size == 1000 && lines.last == "line 999\n", "GzipReader lines"
check Zlib::GzipReader.open("data.txt.gz", &:read).bytesize == lines.sum(&:bytesize), "GzipReader read"

sio = StringIO.new(+"".b)
gz = Zlib::GzipWriter.new(sio)
gz.write("in memory")
gz.close
check Zlib.gunzip(sio.string) == "in memory" && Zlib.gunzip(Zlib.gzip("x" * 10, level: 9)) == "x" * 10, "gzip in memory"
multi = Zlib.gzip("part1 ") + Zlib.gzip("part2")
parts = []
Zlib::GzipReader.zcat(StringIO.new(multi)) { parts << _1 }
check parts.join == "part1 part2", "zcat multi-member"

check Zlib.crc32("hello world") == 0x0D4A1185 && Zlib.adler32("hello world") == 0x1A0B045D, "checksums"
crc = Zlib.crc32("hello ")
check Zlib.crc32("world", crc) == Zlib.crc32("hello world"), "running crc"
raw = Zlib::Deflate.new(6, -Zlib::MAX_WBITS)
rawdata = raw.deflate("raw deflate stream", Zlib::FINISH)
raw.close
check Zlib::Inflate.new(-Zlib::MAX_WBITS).inflate(rawdata) == "raw deflate stream", "raw deflate"
check (Zlib::Inflate.inflate("not compressed") rescue Zlib::Error).ancestors.include?(Zlib::Error), "corrupt input"
check Zlib::ZLIB_VERSION.match?(/\A\d+\.\d+/), "zlib version"
File.delete("data.txt.gz")
puts "OK"
