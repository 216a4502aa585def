import networkx as nx
g = nx.Graph()
g.add_weighted_edges_from([('a', 'b', 1), ('b', 'c', 2), ('a', 'c', 5), ('c', 'd', 1)])
assert nx.shortest_path(g, 'a', 'd', weight='weight') == ['a', 'b', 'c', 'd']
pr = nx.pagerank(nx.DiGraph([(1, 2), (2, 3), (3, 1), (3, 2)]))
assert abs(sum(pr.values()) - 1) < 1e-9
assert nx.is_connected(g) and len(nx.minimum_spanning_tree(g).edges) == 3
print('OK')
