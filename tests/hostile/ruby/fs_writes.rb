# Writes to the read-only root filesystem.
%w[/etc/warmbox_pwned /usr/bin/warmbox_pwned /warmbox_pwned].each do |path|
  File.write(path, "pwned")
  puts "#{path} WRITTEN"
rescue StandardError
  puts "#{path} refused"
end
puts "done"
