import type { WhoisFormat, WhoisQuery } from '../format.ts';

/**
 * whois.jprs.jp (.jp), JPRS. It answers in Japanese, in ISO-2022-JP, unless the query ends in
 * `/e` (English). Templates follow
 * registered, English: likexian/whois-parser testdata/noterror/jp_google.jp (commit 2426ff1e36f7)
 * registered, Japanese: smeghead/whois-result-parser README.md (commit b799c6b638eb), the ntt.jp answer quoted
 *   there; its contact's postal address and telephone kept as they are (the simulated world has none)
 * free: likexian/whois-parser testdata/notfound/jp_likexian-have-no-money-to-register.jp (commit 2426ff1e36f7) (both languages: no Japanese one was found)
 * reserved: weppos/whois-parser spec/fixtures/responses/whois.jprs.jp/jp/status_reserved.txt (commit bedb4a48b0c9) (both languages)
 * The real server drops clients that query too fast.
 */
const REGISTERED_EN = `[ JPRS database provides information on network administration. Its use is    ]
[ restricted to network administration purposes. For further information,     ]
[ use 'whois -h whois.jprs.jp help'. To suppress Japanese output, add'/e'     ]
[ at the end of command, e.g. 'whois -h whois.jprs.jp xxx/e'.                 ]

Domain Information:
[Domain Name]                   {{DOMAIN}}

[Registrant]                    {{registrant}}

[Name Server]                   {{ns}}
[Signing Key]

[Created on]                    {{created|YYYY/MM/DD}}
[Expires on]                    {{expires|YYYY/MM/DD}}
[Status]                        {{state}}
[Last Updated]                  {{updated|YYYY/MM/DD HH:mm:ss}} (JST)

Contact Information:
[Name]                          {{registrant}}
[Email]                         hostmaster@{{domain}}
[Web Page]
[Postal code]                   62701
[Postal Address]                Springfield
                                1 Main Street
                                US
[Phone]                         12175550100
[Fax]                           12175550101`;

const REGISTERED_JA = `[ JPRS database provides information on network administration. Its use is    ]
[ restricted to network administration purposes. For further information,     ]
[ use 'whois -h whois.jprs.jp help'. To suppress Japanese output, add'/e'     ]
[ at the end of command, e.g. 'whois -h whois.jprs.jp xxx/e'.                 ]

Domain Information: [ドメイン情報]
[Domain Name]                   {{DOMAIN}}

[登録者名]                      {{registrant}}
[Registrant]                    {{registrant}}

[Name Server]                   {{ns}}
[Signing Key]                   

[登録年月日]                    {{created|YYYY/MM/DD}}
[有効期限]                      {{expires|YYYY/MM/DD}}
[状態]                          {{state}}
[最終更新]                      {{updated|YYYY/MM/DD HH:mm:ss}} (JST)

Contact Information: [公開連絡窓口]
[名前]                          {{registrant}}
[Name]                          {{registrant}}
[Email]                         hostmaster@{{domain}}
[Web Page]                       
[郵便番号]                      100-8116
[住所]                          東京都千代田区大手町1-5-1
                                大手町ファーストスクエア イーストタワー 20階
[Postal Address]                East Tower 20th Floor Otemachi First Square
                                1-5-1 Otemachi Chiyoda-ku
                                Tokyo Japan
[電話番号]                      03-6838-5590
[FAX番号]                       03-6838-5529
`;

const FREE = `[ JPRS database provides information on network administration. Its use is    ]
[ restricted to network administration purposes. For further information,     ]
[ use 'whois -h whois.jprs.jp help'. To suppress Japanese output, add'/e'     ]
[ at the end of command, e.g. 'whois -h whois.jprs.jp xxx/e'.                 ]

No match!!

With JPRS WHOIS, you can query the following domain name information
sponsored by JPRS.
    - All of registered JP domain name
    - gTLD domain name of which sponsoring registrar is JPRS
Detail: https://jprs.jp/about/dom-search/jprs-whois/ (only in Japanese)

For IP address information, please refer to the following WHOIS servers:
    - JPNIC WHOIS (whois.nic.ad.jp)
    - APNIC WHOIS (whois.apnic.net)
    - ARIN WHOIS (whois.arin.net)
    - RIPE WHOIS (whois.ripe.net)
    - LACNIC WHOIS (whois.lacnic.net)
    - AfriNIC WHOIS (whois.afrinic.net)
`;

const RESERVED = `[ JPRS database provides information on network administration. Its use is    ]
[ restricted to network administration purposes. For further information,     ]
[ use 'whois -h whois.jprs.jp help'. To suppress Japanese output, add'/e'     ]
[ at the end of command, e.g. 'whois -h whois.jprs.jp xxx/e'.                 ]

Domain Information:
[Domain Name]                   {{DOMAIN}}

[Registrant]                     

[Name Server]                   
[Signing Key]                   

[Created on]                     
[Expires on]                     
[Status]                        Reserved
[Last Updated]                  {{now|YYYY/MM/DD}} 00:00:00 (JST)

Contact Information:
[Name]                           
[Email]                         
[Web Page]                       
[Postal code]                    
[Postal Address]                 
[Phone]                         
[Fax]                           

`;

export const jprs: WhoisFormat = {
  name: 'Japan Registry Services Co., Ltd.',
  host: 'whois.jprs.jp',
  timeZone: 'Asia/Tokyo',
  eol: '\r\n',
  charset: 'iso-2022-jp',
  parse(line) {
    const match = /^(\S+?)(\/e)?$/i.exec(line.trim());
    const name = match?.[1]?.toLowerCase().replace(/\.$/, '');
    if (!name || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name)) return undefined;
    return { name, english: match?.[2] !== undefined };
  },
  registered: (query: WhoisQuery) => (query.english ? REGISTERED_EN : REGISTERED_JA),
  free: () => FREE,
  reserved: () => RESERVED,
  state: (domain) => (domain.inZone ? 'Active' : 'Suspended'),
};
