-- Sliding-window counter (Cloudflare, upstash ratelimit), one decision: epoch-aligned windows
-- i = floor(now / W); estimate = floor(prev * (W - now mod W) / W) + cur.
-- KEYS[1] {<name>}:sc:<fingerprint>:<i>[:<client>], this window's count (an integer string
--         that INCRBY updates in place, as the common two-key counter keeps it)
-- KEYS[2] the same for window i - 1
-- ARGV: limit, window_ms, now mod window_ms (or 'redis'), ttl_ms (two windows and a grace: a
--       count matters until the next window ends)[, permits (absent: 1)[, with 'redis' the
--       window index the engine guessed for Redis's time]] (every ARGV element costs Redis
--       200 to 1,300 instructions to build the table from: a decision of one permit sends 4);
--       a scratch limiter (LimiterOptions::ttlCapMs) sends permits and the window index always,
--       and then the config key's TTL (without it the config key has no TTL)
-- The fingerprint names the config, so a changed config counts in new keys. {<name>}:sc:cfg
-- holds the fingerprint last seen (taken from KEYS[1]); only a decision that finds no count at
-- all (a new config, a quiet client) reads it, to answer whether this decision reset the
-- counters.
--
-- A window's first grant marks the previous window's key closed by adding 2^50 to it (or
-- creating it at 2^50): a worker whose clock lags into a window that has a successor finds the
-- mark and decides at the start of the newest window instead (time never runs backwards),
-- reading the keys after its own until one is not marked. Counts are below 2^50 (the limit is
-- at most 1e6), and a marked value less 2^50 is the window's count. The mark costs one write
-- per window, where reading the next window's key on every decision would cost one read each.
--
-- Returns one packed integer, the two counts the decision saw (sliding_counter_limiter.cpp
-- decodes it; the engine works out remaining, the wait and the decision's reason from them):
-- granted 2 * (cur * (limit + 1) + prev) + reset, refused
-- -(2 * (cur * (limit + 1) + prev) + reset) - 1, at the engine's now; 'at <ms> <packed>' when
-- it decided at a time the engine does not know (Redis's time, or the newest window's start);
-- 'retime <ms>' when Redis's time is outside the window the engine guessed (limiter.h).
-- No local functions (a closure is made on every call), numbers converted by arithmetic
-- (ARGV[i] + 0; tonumber() is a C call that parses its string twice; a count that is not a
-- number fails the script, which the engine reports with the limiter's name), permits of '1'
-- not converted at all. Integer divisions of operands below 2^53 (b > 0): a correctly rounded
-- quotient's floor is never too small and at most one too large.
local closed = 1125899906842624 -- 2^50
local limit = ARGV[1] + 0
local permits, permitsText = 1, ARGV[5] or '1'
if permitsText ~= '1' then
    permits = permitsText + 0
end
local offset, at = ARGV[3], nil
if offset == 'redis' then
    local t = redis.call('time')
    local now = t[1] * 1000 + math.floor(t[2] / 1000)
    local W = ARGV[2] + 0
    local i = math.floor(now / W)
    if i * W > now then
        i = i - 1
    end
    if string.format('%d', i) ~= ARGV[6] then
        return 'retime ' .. string.format('%d', now)
    end
    offset, at = now - i * W, now
end

local curKey, prevKey = KEYS[1], KEYS[2]
local cur = redis.call('get', curKey)
local prev = redis.call('get', prevKey)
local c, p, reset, prevClosed = 0, 0, 0, false
if cur then
    c = cur + 0
    if c >= closed then
        -- A lagging clock: this window has a successor. Decide at the start of the newest.
        local head, index, tail = string.match(curKey, '^(.-}:sc:%x+:)(%-?%d+)(.*)$')
        local j = index + 0
        repeat
            prev, p, prevClosed, prevKey = cur, c - closed, true, curKey
            j = j + 1
            curKey = head .. string.format('%d', j) .. tail
            cur = redis.call('get', curKey)
            c = 0
            if cur then
                c = cur + 0
            end
        until c < closed
        offset, at = 0, j * (ARGV[2] + 0)
    end
end
if prev and not prevClosed then
    p = prev + 0
    if p >= closed then
        p, prevClosed = p - closed, true
    end
end
if not cur and not prev then
    local brace = string.find(curKey, '}', 1, true)
    local configKey = string.sub(curKey, 1, brace) .. ':sc:cfg'
    local fingerprint = string.sub(curKey, brace + 5, brace + 12)
    local seen = redis.call('get', configKey)
    if seen ~= fingerprint then
        if ARGV[7] then
            redis.call('set', configKey, fingerprint, 'PX', ARGV[7])
        else
            redis.call('set', configKey, fingerprint)
        end
        if seen then
            reset = 1
        end
    end
end

local estimate = c
if p > 0 then
    local W = ARGV[2] + 0
    local weighted = p * (W - offset)
    local share = math.floor(weighted / W)
    if share * W > weighted then
        share = share - 1
    end
    estimate = estimate + share
end
local packed
if estimate + permits <= limit then
    if cur then
        redis.call('incrby', curKey, permitsText)
    else
        -- This window's first grant: its count lives until the next window ends (and the
        -- grace), and the previous window is closed (the mark passed as text: a number
        -- passed to redis.call is formatted with printf("%.17g") by Redis, about 3,500
        -- instructions).
        redis.call('set', curKey, permitsText, 'PX', ARGV[4])
        if not prev then
            redis.call('set', prevKey, '1125899906842624', 'PX', ARGV[4])
        elseif not prevClosed then
            redis.call('incrby', prevKey, '1125899906842624')
        end
    end
    packed = 2 * (c * (limit + 1) + p) + reset
else
    packed = -(2 * (c * (limit + 1) + p) + reset) - 1
end
if at then
    return 'at ' .. string.format('%d', at) .. ' ' .. string.format('%d', packed)
end
return packed
