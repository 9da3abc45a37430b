-- Sliding-window counter (Cloudflare, upstash ratelimit), one decision: epoch-aligned windows
-- i = floor(now / W); estimate = floor(prev * (W - now mod W) / W) + cur.
-- KEYS[1] {<name>}:sc[:<client>] = "<i> <cur> <prev> <limit>/<window_ms>": the counts of windows
--         i and i - 1 in one string (one read, one write per grant)
-- ARGV: limit, window_ms, permits, now_ms, ttl_scale, grace_ms
-- Returns the text "allowed retry_after_ms remaining at_ms config_reset delay_ms" (one text
-- reply: a table reply costs Redis more than the rest of a cheap decision).
local function reply(allowed, retry, remaining, at, reset, delay)
    return string.format('%d %d %d %d %d %d', allowed, retry, remaining, at, reset, delay)
end

local limit = tonumber(ARGV[1])
local W = tonumber(ARGV[2])
local permits = tonumber(ARGV[3])
-- time: redis (limiter.h): ARGV[4] is 'redis' and the script reads Redis's clock.
local now
if ARGV[4] == 'redis' then
    local t = redis.call('time')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
    now = tonumber(ARGV[4])
end
local config = ARGV[1] .. '/' .. ARGV[2]

local function floordiv(a, b)  -- exact floor(a / b), b > 0
    local q = math.floor(a / b)
    if q * b > a then
        q = q - 1
    elseif (q + 1) * b <= a then
        q = q + 1
    end
    return q
end
local function ceildiv(a, b)
    return -floordiv(-a, b)
end

local i = floordiv(now, W)
local offset = now - i * W
local cur, prev = 0, 0
local reset = 0
local state = redis.call('get', KEYS[1])
if state then
    local si, sc, sp, cfg = string.match(state, '^(%-?%d+) (%d+) (%d+) (%S+)$')
    if not si then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a counter state')
    end
    si, sc, sp = tonumber(si), tonumber(sc), tonumber(sp)
    if cfg ~= config then
        reset = 1
        redis.call('del', KEYS[1])
    elseif si == i then
        cur, prev = sc, sp
    elseif si == i - 1 then
        prev = sc
    elseif si > i then
        -- A lagging clock: decide at the start of the newest window (time never runs backwards).
        i, offset, cur, prev, now = si, 0, sc, sp, si * W
    end
end

local estimate = floordiv(prev * (W - offset), W) + cur
if permits <= limit and estimate + permits <= limit then
    cur = cur + permits
    local ttl = math.ceil((2 * W - offset) * tonumber(ARGV[5])) + tonumber(ARGV[6])
    redis.call('set', KEYS[1], string.format('%d %d %d ', i, cur, prev) .. config, 'PX',
               string.format('%d', ttl))
    return reply(1, 0, limit - estimate - permits, now, reset, 0)
end
local remaining = math.max(0, limit - estimate)
if permits > limit then
    return reply(0, -1, remaining, now, reset, 0)
end

-- The smallest whole wait w >= 1 after which floor(p * (W - off) / W) + c <= limit - permits,
-- first in this window (p = prev, c = cur), then in the next (p = cur, c = 0), else the one after.
local function firstOffset(p, c, from)
    local a = limit - permits - c
    if a < 0 then
        return nil
    end
    local off = from
    if p > 0 then
        -- floor(p * (W - off) / W) <= a  <=>  W - off <= ceil((a + 1) * W / p) - 1
        off = math.max(from, W - ceildiv((a + 1) * W, p) + 1)
    end
    if off <= W - 1 then
        return off
    end
    return nil
end
local off = firstOffset(prev, cur, offset + 1)
local retry
if off then
    retry = off - offset
else
    off = firstOffset(cur, 0, 0)
    if off then
        retry = W - offset + off
    else
        retry = 2 * W - offset
    end
end
return reply(0, retry, remaining, now, reset, 0)
