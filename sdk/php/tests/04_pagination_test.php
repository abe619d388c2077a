<?php

// Iteration across pages: every item once, more than one page fetched, the query kept.

declare(strict_types=1);

test('pagination: autoPagingIterator walks every page with the same query and the cursor', function () {
    $c = live_client();
    $prefix = unique('page-');
    $created = [];
    for ($i = 0; $i < 5; $i++) {
        $created[] = $c->leads->create(['email' => "$prefix-$i@example.com"])['id'];
    }
    // min_score=0 filters nothing; it shows that every page keeps the query.
    $first = $c->leads->list(['limit' => 2, 'min_score' => 0]);
    assert_same(2, count($first));
    assert_same(true, $first->hasMore);
    $seen = [];
    $queries = [];
    foreach ($first->autoPagingIterator() as $lead) {
        $seen[] = $lead['id'];
        $queries[] = parse_url($c->getLastResponse()->url, PHP_URL_QUERY);
    }
    assert_same(count($seen), count(array_unique($seen)), 'no lead twice');
    assert_same([], array_values(array_diff($created, $seen)), 'every created lead seen');
    $pages = array_values(array_unique($queries));
    assert_true(count($pages) >= 3, 'at least three pages of 2 (' . count($pages) . ')');
    assert_same((int) ceil(count($seen) / 2), count($pages), 'pages of 2');
    foreach ($pages as $i => $query) {
        assert_true(str_contains((string) $query, 'limit=2') && str_contains((string) $query, 'min_score=0'), "page $i keeps the query ($query)");
        assert_same($i > 0, str_contains((string) $query, 'cursor='), "page $i cursor");
    }
    // The page itself iterates only its own items.
    assert_same(array_column($first->data, 'id'), array_column(iterator_to_array($first), 'id'));
    $second = $first->nextPage();
    assert_true($second !== null && count($second) === 2, 'nextPage()');
});
