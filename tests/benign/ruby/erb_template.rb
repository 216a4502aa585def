# ERB templates: trim modes, loops and conditionals, bindings, result_with_hash, HTML escaping, a report written to a file.
require "erb"
require "cgi"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

tpl = ERB.new(<<~T, trim_mode: "-")
  Report for <%= title %>
  <%- items.each_with_index do |(name, qty), i| -%>
  <%= i + 1 %>. <%= name.ljust(8) %> <%= format("%3d", qty) %>
  <%- end -%>
  <%- if items.sum { _2 } > 10 -%>
  Total: <%= items.sum { _2 } %> (large)
  <%- else -%>
  Total: small
  <%- end -%>
T
out = tpl.result_with_hash(title: "Inventory", items: { "apples" => 3, "pears" => 12 })
check out == "Report for Inventory\n1. apples     3\n2. pears     12\nTotal: 15 (large)\n", "result_with_hash: #{out.inspect}"

class Page
  include ERB::Util
  attr_reader :user, :links
  def initialize(user, links) = (@user, @links = user, links)
  TEMPLATE = ERB.new(<<~HTML, trim_mode: "<>")
    <h1>Hello <%= h user %></h1>
    <ul>
    <% links.each do |text, href| %>
      <li><a href="<%= url_encode(href) %>"><%= h text %></a></li>
    <% end %>
    </ul>
  HTML
  def render = TEMPLATE.result(binding)
end
html = Page.new("<script>alert('x')</script>", { "Docs & more" => "a b/c?d=1" }).render
check html.include?("<h1>Hello &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</h1>"), "html escape"
check html.include?(%(<a href="a%20b%2Fc%3Fd%3D1">Docs &amp; more</a>)), "url_encode"
check !html.include?("<% "), "no template tags left"

x = 42
check ERB.new("x is <%= x %>").result(binding) == "x is 42", "local binding"
check ERB.new("<%# a comment %>a<%% literal %>").result == "a<% literal %>", "comments and escapes"
check ERB.new("<% 3.times do |i| %><%= i %>,<% end %>").result == "0,1,2,", "inline loop"
check ERB.new("a\n<% if true %>\nb\n<% end %>\n", trim_mode: "<>").result == "a\nb\n", "trim <>"
check ERB.new("% 2.times do\nline\n% end\n", trim_mode: "%").result == "line\nline\n", "percent lines"
src = ERB.new("<%= 1 + 1 %>").src
check src.include?("1 + 1") && eval(src) == "2", "compiled source"
check CGI.escapeHTML("<a & 'b'>") == "&lt;a &amp; &#39;b&#39;&gt;" && CGI.unescapeHTML("&lt;&amp;&gt;") == "<&>", "CGI escaping"
check CGI.escape("a b&c=d/é") == "a+b%26c%3Dd%2F%C3%A9" && CGI.unescape("a+b%26") == "a b&", "CGI url escape"

erb = ERB.new(%(<%= rows.map { |r| r.join(",") }.join("\n") %>\n))
File.write("report.csv", erb.result_with_hash(rows: [%w[a 1], %w[b 2]]))
check File.read("report.csv") == "a,1\nb,2\n", "template to file"
File.delete("report.csv")
puts "OK"
