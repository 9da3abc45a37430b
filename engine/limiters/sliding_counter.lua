-- Sliding-window counter (Cloudflare, upstash ratelimit), one decision: epoch-aligned windows
-- i = floor(now / W); estimate = floor(prev * (W - now mod W) / W) + cur.
-- KEYS[1] {<name>}:sc[:<client>] = "<i> <cur> <prev> <limit>/<window_ms>": the counts of windows
--         i and i - 1 in one string (one read, one write per grant)
-- ARGV: limit, window_ms, permits, now_ms, ttl_ms, config ("<limit>/<window_ms>") (the engine
--       forms both once per limiter: a window's counts matter until the next window ends, so
--       two windows plus a grace; number-to-text conversions in the script would cost Redis
--       more than the rest of a decision); with the engine's own now also i and now mod
--       window_ms: the state's window is then compared as text (interned strings compare by
--       address) and the counts the write keeps are the state's own texts, so a grant converts
--       at most one number to text
-- Returns one packed integer (Limiter::parseReply, radix limit + 2): granted
-- 2 * remaining + reset, refused -(2 * ((retry_after_ms + 1) * radix + remaining) + reset) - 1;
-- the text "allowed retry_after_ms remaining at_ms config_reset 0" when the engine does not
-- know at_ms (Redis's time, or a lagging clock decided at a later window) or past 2^53.
-- No local functions: a closure is made on every call, which costs more than the arithmetic.
-- Numbers in ARGV are converted by arithmetic (ARGV[i] + 0, or an ARGV operand): tonumber() is a
-- C call that parses its string twice, and costs Redis half a GET more than the coercion.
-- Integer divisions of operands below 2^53 (in magnitude, b > 0): a correctly rounded
-- quotient's floor is never too small and at most one too large (its ceil never too large, at
-- most one too small).
local limit = ARGV[1] + 0
-- window_ms and the offset stay texts until a decision needs them as numbers: a grant with
-- no previous count does not.
local W = ARGV[2]
local permits = 1
if ARGV[3] ~= '1' then
    permits = ARGV[3] + 0
end
-- time: redis (limiter.h): ARGV[4] is 'redis' and the script reads Redis's clock.
local knownTime = ARGV[4] ~= 'redis'  -- at_ms is the engine's own now
local now, i, iText, offset
if knownTime then
    iText, offset = ARGV[7], ARGV[8]
else
    local t = redis.call('time')
    now = t[1] * 1000 + math.floor(t[2] / 1000)
    W = W + 0
    i = math.floor(now / W)
    if i * W > now then
        i = i - 1
    end
    iText, offset = string.format('%d', i), now - i * W
end
local config = ARGV[6]

local cur, prev = 0, 0
local reset = 0
local curText, prevText = nil, '0'  -- the state's texts of what the write keeps
local state = redis.call('get', KEYS[1])
if state then
    local si, sc, sp, cfg = string.match(state, '^(%-?%d+) (%d+) (%d+) (%S+)$')
    if not si then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a counter state')
    end
    if cfg ~= config then
        reset = 1
        redis.call('del', KEYS[1])
    elseif si == iText then
        cur, curText, prevText = sc + 0, sc, sp
        if sp ~= '0' then  -- no previous count (a first window): nothing to convert
            prev = sp + 0
        end
    else
        local window = si + 0
        i = i or ARGV[7] + 0
        if window == i - 1 then
            prev, prevText = sc + 0, sc
        elseif window > i then
            -- A lagging clock: decide at the start of the newest window (time never runs
            -- backwards).
            iText, offset, cur, prev, curText, prevText = si, 0, sc + 0, sp + 0, sc, sp
            now = window * W
            knownTime = false
        end
    end
end

local estimate = cur
if prev > 0 then
    W, offset = W + 0, offset + 0
    local weighted = prev * (W - offset)
    local share = math.floor(weighted / W)
    if share * W > weighted then
        share = share - 1
    end
    estimate = estimate + share
end
local allowed, retry, remaining = 0, -1, limit - estimate
if remaining < 0 then
    remaining = 0
end
if permits <= limit and estimate + permits <= limit then
    allowed, retry, remaining = 1, 0, limit - estimate - permits
    if curText then
        -- The TTL set by this window's first grant still covers it (setting one costs more).
        redis.call('set', KEYS[1],
            iText .. ' ' .. (cur + permits) .. ' ' .. prevText .. ' ' .. config, 'KEEPTTL')
    else
        redis.call('set', KEYS[1], iText .. ' ' .. ARGV[3] .. ' ' .. prevText .. ' ' .. config,
            'PX', ARGV[5])
    end
elseif permits <= limit then
    -- The smallest whole wait w >= 1 after which floor(p * (W - off) / W) + c <= limit - permits:
    -- first in this window (p = prev, c = cur, off > offset), then in the next (p = cur, c = 0),
    -- else at the start of the one after (2W - offset).
    W, offset = W + 0, offset + 0
    retry = 2 * W - offset
    local p, c, from, base = prev, cur, offset + 1, -offset
    for _ = 1, 2 do
        local a = limit - permits - c
        if a >= 0 then
            local off = from
            if p > 0 then
                -- floor(p * (W - off) / W) <= a  <=>  W - off <= ceil((a + 1) * W / p) - 1
                local n = (a + 1) * W
                local q = math.ceil(n / p)
                if q * p < n then
                    q = q + 1
                end
                if W - q + 1 > from then
                    off = W - q + 1
                end
            end
            if off <= W - 1 then
                retry = base + off
                break
            end
        end
        p, c, from, base = cur, 0, 0, W - offset
    end
end

if knownTime then
    local packed
    if allowed == 1 then
        packed = 2 * remaining + reset
    else
        packed = 2 * ((retry + 1) * (limit + 2) + remaining) + reset
    end
    if packed < 9007199254740992 then
        return allowed == 1 and packed or -packed - 1
    end
end
now = now or ARGV[4] + 0
return string.format('%d %d %d %d %d 0', allowed, retry, remaining, now, reset)
