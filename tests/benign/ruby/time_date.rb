# Time and Date: fixed epochs in UTC, strftime, parsing (Time.parse/iso8601/strptime), arithmetic, Date ranges, monotonic clock.
require "time"
require "date"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

t = Time.at(1_700_000_000).utc
check t.strftime("%Y-%m-%d %H:%M:%S %A %j") == "2023-11-14 22:13:20 Tuesday 318", "strftime"
check t.iso8601 == "2023-11-14T22:13:20Z" && t.xmlschema(3) == "2023-11-14T22:13:20.000Z", "iso8601"
check t.httpdate == "Tue, 14 Nov 2023 22:13:20 GMT" && t.rfc2822 == "Tue, 14 Nov 2023 22:13:20 -0000", "httpdate/rfc2822"
check Time.utc(2000, 1, 1).to_i == 946_684_800 && Time.gm(1970).to_i.zero?, "Time.utc"
check (t + 86_400).day == 15 && (Time.utc(2024, 3, 1) - Time.utc(2024, 2, 1)) / 86_400 == 29, "arithmetic"
check Time.iso8601("2024-05-06T07:08:09+02:00").utc.hour == 5, "parse offset"
check Time.parse("2024-01-02 03:04:05 UTC").to_i == 1_704_164_645, "Time.parse"
check Time.strptime("15/03/2024 14:30 +0000", "%d/%m/%Y %H:%M %z").utc.min == 30, "strptime"
off = Time.at(0).getlocal("+05:30")
check off.hour == 5 && off.min == 30 && off.utc_offset == 19_800 && off.strftime("%z") == "+0530", "fixed offset"
check Time.new(2024, 6, 1, 12, 0, 0, "-07:00").utc.hour == 19, "Time.new with offset"
check Time.at(1.5).utc.usec == 500_000 && Time.at(0, 123, :millisecond).utc.nsec == 123_000_000, "sub-second"
check Time.utc(2024, 1, 1).wday == 1 && Time.utc(2024, 12, 31).yday == 366, "wday/yday"
check Time.utc(2024, 1, 1) < Time.utc(2024, 1, 2) && Time.utc(2024, 1, 1).round == Time.utc(2024, 1, 1), "compare"

d = Date.new(2024, 2, 28)
check (d + 1).to_s == "2024-02-29" && (d >> 1).to_s == "2024-03-28" && d.leap?, "Date arithmetic"
check (Date.new(2024, 1, 31) >> 1).to_s == "2024-02-29", "month end clamp"
check Date.parse("March 15, 2024").yday == 75 && Date.iso8601("2024-W11-5").to_s == "2024-03-15", "Date.parse/week dates"
check (Date.new(2024, 12, 25) - Date.new(2024, 1, 1)).to_i == 359, "days between"
weekdays = (Date.new(2024, 3, 1)..Date.new(2024, 3, 31)).count { !(_1.saturday? || _1.sunday?) }
check weekdays == 21, "business days #{weekdays}"
check Date.new(2024, 3, 15).cweek == 11 && Date.new(2024, 3, 15).strftime("%a %b %-d") == "Fri Mar 15", "cweek/strftime"
check Date.valid_date?(2023, 2, 29) == false && (Date.new(2023, 2, 29) rescue Date::Error) == Date::Error, "invalid date"
check Date.new(2024, 1, 1).step(Date.new(2024, 1, 31), 7).map(&:day) == [1, 8, 15, 22, 29], "step"
check Date.new(2024, 3, 10).next_month.month == 4 && Date.new(2024, 3, 10).prev_day.day == 9, "next/prev"
dt = DateTime.new(2024, 3, 15, 10, 30, 0, "+01:00")
check dt.to_time.utc.hour == 9 && dt.iso8601 == "2024-03-15T10:30:00+01:00", "DateTime"
check Time.utc(2024, 3, 15).to_date == Date.new(2024, 3, 15) && Date.new(2024, 3, 15).to_time.year == 2024, "conversions"
check Date.jd(2_460_385).to_s == "2024-03-15" && Date::ABBR_DAYNAMES.size == 7, "julian day"
ages = { "a" => Date.new(1990, 6, 15), "b" => Date.new(2000, 12, 31) }
ref = Date.new(2024, 6, 14)
age = ->(b) { ref.year - b.year - (ref < b.next_year(ref.year - b.year) ? 1 : 0) }
check age[ages["a"]] == 33 && age[ages["b"]] == 23, "age computation"

now = Time.now
check now.year >= 2024 && (Time.now - now) >= 0, "clock"
m1 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
sleep 0.05
m2 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
check m2 - m1 >= 0.045 && m2 - m1 < 1.5, "monotonic #{m2 - m1}"
cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
check cpu > 0 && Process.times.utime >= 0, "cpu time"
check Time.now.utc_offset.is_a?(Integer) && Time.now.zone.is_a?(String), "local zone"
puts "OK"
