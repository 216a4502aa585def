# Command-line handling: ARGV (empty here), OptionParser on sample argument lists, typed options, errors, help text, shellwords.
require "optparse"
require "shellwords"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)
check ARGV.empty? && $PROGRAM_NAME.end_with?("main.rb") && __FILE__.end_with?("main.rb"), "no arguments, program name"

def parse(argv)
  opts = { verbose: 0, level: 1, tags: [], format: :text }
  parser = OptionParser.new do |o|
    o.banner = "Usage: tool [options] FILES"
    o.on("-v", "--[no-]verbose", "more output") { |v| opts[:verbose] += v ? 1 : -1 }
    o.on("-o", "--output FILE", "output file") { opts[:output] = _1 }
    o.on("-l", "--level N", Integer, "level (integer)") { opts[:level] = _1 }
    o.on("-t", "--tags A,B", Array, "tags") { opts[:tags] = _1 }
    o.on("-f", "--format FMT", %i[text json csv], "format") { opts[:format] = _1 }
    o.on("-r", "--ratio X", Float) { opts[:ratio] = _1 }
    o.on("--dry-run") { opts[:dry] = true }
  end
  rest = parser.parse(argv)
  [opts, rest, parser]
end

opts, rest, parser = parse(%w[-vv --output out.txt -l 3 --tags a,b,c -f json --ratio 0.5 in1 --dry-run in2])
check opts == { verbose: 2, level: 3, tags: %w[a b c], format: :json, output: "out.txt", ratio: 0.5, dry: true }, "parsed #{opts}"
check rest == %w[in1 in2], "operands"
opts, rest, = parse(%w[--no-verbose -- -v file])
check opts[:verbose] == -1 && rest == %w[-v file], "--no- and --"
check parser.help.include?("Usage: tool [options] FILES") && parser.help.include?("--[no-]verbose"), "help text"
{
  %w[--level x] => OptionParser::InvalidArgument, %w[--bogus] => OptionParser::InvalidOption,
  %w[--output] => OptionParser::MissingArgument, %w[-f xml] => OptionParser::InvalidArgument,
}.each do |argv, err|
  begin
    parse(argv)
    raise "FAIL: #{argv} accepted"
  rescue err
  end
end
check (parse(%w[--lev 5])[0][:level] == 5), "unambiguous abbreviation"
into = {}
OptionParser.new { |o| o.on("-a"); o.on("-b VALUE") }.parse!(%w[-a -b 2 rest], into: into)
check into == { a: true, b: "2" }, "into:"
args = Shellwords.split(%(cmd --name "two words" 'single quoted' esc\\ aped))
check args == ["cmd", "--name", "two words", "single quoted", "esc aped"], "Shellwords.split"
check Shellwords.escape("it's here") == "it\\'s\\ here" && %w[a b\ c].shelljoin == "a b\\ c", "escape/join"
check ARGF.class.name == "ARGF.class" && $stdin.read == "", "stdin is empty"
puts "OK"
