# Scrapy settings for a recrawl of sample-hosts.csv (written for Freshlab).
BOT_NAME = "freshlab_sample"
ROBOTSTXT_OBEY = True

# one request a host every 2 s on average (randomised 1-3 s) ...
DOWNLOAD_DELAY = 2
CONCURRENT_REQUESTS_PER_DOMAIN = 1

# ... except where a host's owner asked for less: the two largest hosts serve
# a request every 20 s and every 10 s
DOWNLOAD_SLOTS = {
    "site1.example": {"delay": 20, "randomize_delay": False},
    "site2.example": {"delay": 10, "randomize_delay": False},
}

RETRY_TIMES = 2
